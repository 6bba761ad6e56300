"""Pretty-printing JSON for records and for messages: a record's stable layout, a value quoted in an error.

- :func:`pretty_json`: JSON text laid out for people (small values on one line, the rest one item a line), as
  :func:`~sergeant_major.records.format.dumps_record` writes a record.
- :func:`quote_json`: a value as JSON text for an error message, cut short and with its control characters escaped.
"""

from __future__ import annotations

import json
from typing import Any, Final

from sergeant_major.core.safetext import visible

__all__ = ["LINE_WIDTH", "pretty_json", "quote_json"]

LINE_WIDTH: Final = 120
"""The widest line :func:`pretty_json` puts a small object or list on, in characters (indent included)."""

_QUOTE_WIDTH: Final = 60


def _depth(value: Any) -> int:
    """How deeply ``value`` nests objects and lists: 0 for a scalar, 1 for a flat list or object."""
    if isinstance(value, dict):
        return 1 + max((_depth(x) for x in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(x) for x in value), default=0)
    return 0


def pretty_json(value: Any, indent: int = 0) -> str:
    """``value`` as JSON text for people: an object or list nesting at most two levels that fits in
    :data:`LINE_WIDTH` (after ``indent`` spaces) on one line, anything larger one item a line, keys in their order,
    UTF-8 kept as it is; no final newline.

    Raises:
        TypeError, ValueError: ``value`` holds something JSON cannot represent (NaN, an object of another type).
    """
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    if not isinstance(value, (dict, list)) or not value:
        return compact
    if _depth(value) <= 2 and indent + len(compact) <= LINE_WIDTH:
        return compact
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty_json(x, indent + 2)}" for k, x in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty_json(x, indent + 2) for x in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def quote_json(value: Any) -> str:
    """``value`` as JSON text for a message, cut at 60 characters, control characters escaped (never raw on a
    terminal); a value JSON cannot represent is shown by its ``repr``."""
    try:
        text = visible(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _QUOTE_WIDTH else text[:_QUOTE_WIDTH - 3] + "..."
