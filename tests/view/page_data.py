"""Read back what a page carries: its meta JSON and its packed records (or conversations)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from typing import Any


def packed(page: str) -> list[Any]:
    """The gzip'd, base64 rows of the page's records-data element ([] when it has none)."""
    found = re.search(r'<script id="records-data"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    text = found.group(1).strip()
    return json.loads(gzip.decompress(base64.b64decode(text))) if text else []


def meta(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="meta" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))
