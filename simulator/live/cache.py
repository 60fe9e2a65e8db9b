"""Record and replay model calls: a SQLite cache shared across runs.

A call is keyed by what determines its output: the model, the base URL, the prompt hash
(which covers the prompt template and the reader input) and the generation settings.
A new run directory, another arm or a re-run after deleting a store can therefore be
answered from calls an earlier run recorded, and ``--replay`` answers from this cache only.

Only answers are kept (the parsed answer, whether it was a reader failure, and the usage
of the call that produced it). Provider errors are never cached: they are not outputs, and
a later run should try again. The cache holds no credentials.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.answers.schema import AgentAnswer

CACHE_FILE = "calls.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key TEXT PRIMARY KEY, model TEXT NOT NULL, prompt_hash TEXT NOT NULL,
    created TEXT NOT NULL, result TEXT NOT NULL
);
"""


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/layerrag/calls.sqlite``, else ``~/.cache/layerrag/calls.sqlite``."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "layerrag" / CACHE_FILE


def call_key(model: str, base_url: str | None, prompt_hash: str,
             generation: dict[str, Any]) -> str:
    body = json.dumps([model, base_url or "", prompt_hash, generation], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


class RecordedCall(BaseModel):
    """What a recorded call produced: a reader's parsed answer, or the messages (and
    structured answer) a tool-calling agent's model call returned."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    answer: AgentAnswer | None = None
    messages: list[dict[str, Any]] | None = None
    """A tool-calling agent's call: LangChain ``messages_to_dict`` of what it returned."""
    structured: dict[str, Any] | None = None
    """The agent's structured final answer, when the call produced one."""
    reader_error: bool = False
    note: str | None = None
    """Why a call's output broke its contract (an LLM judge's unjudged reason)."""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None


class CallCache:
    """Thread-safe; several processes may share one file (SQLite WAL, busy timeout).

    The file is opened on first use, so a run that stops before its first call (a missing
    key, a typo) leaves no cache behind.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
        return self._db

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def get(self, key: str) -> RecordedCall | None:
        with self._lock:
            row = self._conn().execute("SELECT result FROM calls WHERE key=?",
                                       (key,)).fetchone()
        return RecordedCall.model_validate_json(row[0]) if row else None

    def put(self, key: str, model: str, prompt_hash: str, call: RecordedCall) -> None:
        created = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with self._lock, self._conn() as db:
            db.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?, ?)",
                       (key, model, prompt_hash, created, call.model_dump_json()))

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn().execute("SELECT COUNT(*) FROM calls").fetchone()[0])
