"""The fault registry and the ``@fault(layer=...)`` decorator.

A fault is a small factory: its keyword arguments configure it, it checks them at once
(so a scenario with an impossible parameter fails when it is built, not mid-run) and it
returns :class:`~middleware.types.FaultSteps`. The decorator registers it under its function
name with its declared layer.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from middleware.types import Fault, FaultSteps
from simulator.errors import UsageError
from simulator.registry import Registry, check_choice, check_parameters
from simulator.vocabulary import LAYERS, Layer


@dataclass(frozen=True)
class FaultFactory:
    """A registered fault: call it with parameters to build a :class:`Fault`."""

    name: str
    layer: Layer
    factory: Callable[..., FaultSteps]
    description: str

    def __call__(self, **params: Any) -> Fault:
        check_parameters("fault", self.name, self.factory, params)
        return Fault(name=self.name, layer=self.layer, steps=self.factory(**params),
                     params=dict(params))

    @property
    def parameters(self) -> dict[str, Any]:
        """Parameter names and their defaults."""
        return {n: p.default for n, p in inspect.signature(self.factory).parameters.items()}


faults: Registry[FaultFactory] = Registry("fault")


def fault(*, layer: Layer) -> Callable[[Callable[..., FaultSteps]], FaultFactory]:
    """Register a fault factory under its function name, with the layer it targets."""
    if layer not in LAYERS:
        raise ValueError(f"unknown layer {layer!r}; layers: {', '.join(LAYERS)}")

    def register(factory: Callable[..., FaultSteps]) -> FaultFactory:
        doc = inspect.getdoc(factory) or ""
        entry = FaultFactory(name=factory.__name__, layer=layer, factory=factory,
                             description=doc.splitlines()[0] if doc else "")
        return faults.add(entry.name, entry)

    return register


def get_fault(name: str) -> FaultFactory:
    """The registered fault ``name``; an unknown name is a UsageError with a suggestion."""
    return faults.get(name)


# -- parameter checks: one line, naming the fault, the parameter and the value ----------

def check_probability(fault_name: str, param: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise UsageError(f"fault {fault_name!r}: {param} must be a probability in [0, 1], "
                         f"got {value!r}")
    return float(value)


def check_positive_int(fault_name: str, param: str, value: int | None, *,
                       allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UsageError(f"fault {fault_name!r}: {param} must be a whole number of at least 1, "
                         f"got {value!r}")
    return value


def check_choices(fault_name: str, param: str, values: Collection[str],
                  allowed: Collection[str]) -> tuple[str, ...]:
    chosen = (values,) if isinstance(values, str) else tuple(values)
    if not chosen:
        raise UsageError(f"fault {fault_name!r}: {param} must name at least one of "
                         f"{', '.join(allowed)}")
    return tuple(check_choice("fault", fault_name, param, v, allowed) for v in chosen)
