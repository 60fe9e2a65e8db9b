"""Scrub known API keys out of any text that may reach a console, a log or a record.

Our own messages never quote a provider's text (see :mod:`simulator.live.errors`), but a
library's may: LangChain raises ``ValueError(body["error"])`` for an error sent with status
200, and a server that echoes the key puts it there. Every key layerrag reads is
remembered here (:func:`remember`), and :func:`scrub` replaces each with ``[key]`` in the
messages that leave the process: the CLI's one-line error, the record's reason, notes
added to a propagating error. Keys are long random strings, so replacing them never
changes a legitimate message.
"""

from __future__ import annotations

import threading

MIN_KEY_LENGTH = 8
"""Shorter values (a placeholder, an empty variable) are not treated as secrets."""
REDACTED = "[key]"

_lock = threading.Lock()
_keys: set[str] = set()


def remember(value: str) -> None:
    """Treat ``value`` as a secret from now on (for the life of the process)."""
    if len(value) >= MIN_KEY_LENGTH:
        with _lock:
            _keys.add(value)


def scrub(text: str) -> str:
    """``text`` with every remembered key replaced by ``[key]``."""
    with _lock:
        keys = sorted(_keys, key=len, reverse=True)  # a key containing another goes first
    for key in keys:
        if key in text:
            text = text.replace(key, REDACTED)
    return text
