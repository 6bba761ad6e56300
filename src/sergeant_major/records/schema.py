"""Checking a JSON document against a JSON Schema shipped in the package, naming the first fault and quoting it.

A :class:`SchemaChecker` validates with the ``jsonschema`` library (draft 2020-12, integers never ``true`` nor
``1.0``, numbers always finite) and turns the first fault, in the document's order, into a :class:`SchemaFault`:
the JSON path of the fault (``deals[2].actions[5].play``) and a message that quotes the bad value.

A schema words its own messages beside its rules, in keywords that other validators ignore:

- ``"x-messages": {KEYWORD: TEMPLATE}`` in the subschema holding the failing keyword (``type``, ``pattern``,
  ``minItems``...): the message, in :meth:`str.format` form. Fields: ``{value}`` (the bad value quoted),
  ``{whole}`` (the value at the place reported, see ``x-up``), ``{key}`` (the key missing or unknown, as
  ``'seat'``), ``{count}`` (the length of the bad value), ``{limit}`` (the keyword's own value), ``{allowed}``
  (the keys an object may have), ``{types}`` (the types wanted, in words), and those the caller passes.
- ``"x-up": N``: report the fault N places up the path (an item of a list reported as the list).
- ``"x-at": KEY``: report the fault at ``KEY`` of the object (a rule that a key brings, reported at the key).

Without a template a keyword gets a plain message (``expected an integer, got "12"``; ``missing required key
'seed'``; ``unknown key 'colour' (allowed: ...)``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sergeant_major.core.errors import install_hint
from sergeant_major.core.safetext import visible
from sergeant_major.records.pretty import quote_json

try:
    import jsonschema
    from jsonschema import ValidationError
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"sergeant_major.records needs jsonschema ({exc}); install it with: "
                      + install_hint("records")) from exc

__all__ = ["SchemaChecker", "SchemaFault", "document_order", "inline_refs", "json_path", "path_text"]

_TYPE_WORDS: Final = {"integer": "an integer", "number": "a number", "string": "a string", "object": "an object",
                      "array": "a list", "boolean": "true or false", "null": "null"}

_DEFAULT_MESSAGES: Final = {
    "type": "expected {types}, got {value}",
    "required": "missing required key {key}",
    "additionalProperties": "unknown key {key} (allowed: {allowed})",
    "minItems": "expected at least {limit} items, got {count}",
    "maxItems": "expected at most {limit} items, got {count}",
    "minLength": "expected at least {limit} characters, got {value}",
    "minimum": "{value} is below {limit}",
    "maximum": "{value} is above {limit}",
    "const": "expected {limit}, got {value}",
    "enum": "expected one of {limit}, got {value}",
    "pattern": "{value} does not have the form {limit}",
}


def _is_integer(_checker: Any, value: Any) -> bool:
    # JSON has one number type: 1.0 is not a seat, a seed or a count here (jsonschema takes it as an integer)
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(_checker: Any, value: Any) -> bool:
    # NaN and Infinity are no JSON numbers (Python's json reads them)
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool)  # an int of any size (math.isfinite overflows)


_Validator: Final = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number}),
)


def json_path(where: str, key: str) -> str:
    """The JSON path of ``key`` in the object at ``where`` (``"deals[0]"``, ``"kitty"`` -> ``"deals[0].kitty"``), the
    key's control characters escaped (a path is printed; a key read from a file never carries them raw)."""
    key = visible(key)
    return f"{where}.{key}" if where else key


def path_text(path: Iterable[str | int]) -> str:
    """A path of keys and list indices as text: ``["deals", 2, "actions"]`` -> ``"deals[2].actions"``; ``""`` for
    the whole document."""
    where = ""
    for step in path:
        where = f"{where}[{step}]" if isinstance(step, int) else json_path(where, step)
    return where


@dataclass(frozen=True)
class SchemaFault:
    """The first fault of a document against a schema.

    Attributes:
        where: the JSON path of the fault (``"deals[0].actions[2].seat"``; ``""`` for the whole document).
        message: what is wrong, quoting the bad value (without ``where``).
        keyword: the schema keyword that failed (``"type"``, ``"required"``...).
        path: the keys and indices of the fault's place in the document checked (``where`` without the prefix
            :meth:`SchemaChecker.first_fault` was given), for :func:`document_order`.
    """

    where: str
    message: str
    keyword: str
    path: tuple[str | int, ...] = ()


class _Fields(dict[str, str]):
    """Template fields; a field the template names but nobody gave stays as it is written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_ANNOTATIONS: Final = frozenset({"description", "title", "$comment"})


def inline_refs(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/NAME", ...}`` replaced by a copy of ``defs[NAME]`` and the ref's other
    keywords: the same schema, validated several times faster (jsonschema resolves a ref anew on every use).

    Raises:
        ValueError: a ref to something other than ``#/$defs/NAME``, a ref that names itself (directly or not), or a
            keyword given both beside a ref and in its definition (other than a description).
    """
    return _inline(node, defs, ())


def _inline(node: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(x, defs, seen) for x in node]
    if not isinstance(node, Mapping):
        return node
    out = {k: _inline(v, defs, seen) for k, v in node.items() if k != "$ref"}
    ref = node.get("$ref")
    if ref is None:
        return out
    name = str(ref).removeprefix("#/$defs/")
    if name == ref or name not in defs or name in seen:
        raise ValueError(f"cannot inline the ref {ref!r} (only #/$defs/NAME, not recursive)")
    target: dict[str, Any] = _inline(defs[name], defs, (*seen, name))
    both = (target.keys() & out.keys()) - _ANNOTATIONS
    if both:
        raise ValueError(f"{', '.join(sorted(both))} both beside the ref {ref!r} and in its definition")
    return {**target, **out}


def document_order(doc: Any, path: Iterable[str | int]) -> tuple[int, ...]:
    """Where ``path`` is in the text of ``doc``, as a key that sorts in reading order: each step's index among its
    object's keys (or its list index; -1 for a key the object lacks), a place before the places inside it."""
    order: list[int] = []
    node = doc
    for step in path:
        if isinstance(node, dict):
            order.append(list(node).index(step) if step in node else -1)
        else:
            order.append(step if isinstance(step, int) else -1)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return tuple(order)


class SchemaChecker:
    """A JSON Schema (or one of its ``$defs``) and the messages of its faults (module doc)."""

    def __init__(self, schema: Mapping[str, Any], definition: str | None = None,
                 quote: Callable[[Any], str] = quote_json, missing_key_at_object: bool = False,
                 describe: Callable[[Any], Mapping[str, str]] | None = None) -> None:
        """A checker of ``schema``, its refs inlined (:func:`inline_refs`).

        Args:
            schema: the whole schema (draft 2020-12).
            definition: check against ``$defs[definition]`` instead of the whole schema.
            quote: how a message shows a value (default :func:`~sergeant_major.records.pretty.quote_json`).
            missing_key_at_object: report a missing key at its object (``board_outcomes[0]: missing key 'index'``)
                rather than at the key's own path (``seed: missing required key 'seed'``).
            describe: more template fields from the failing value (e.g. an action's kind).
        """
        defs = schema.get("$defs", {})
        root = inline_refs(schema if definition is None else defs[definition], defs)
        root.pop("$defs", None)
        root.pop("$id", None)
        self._validator = _Validator(root)
        self._quote = quote
        self._missing_key_at_object = missing_key_at_object
        self._describe = describe

    @classmethod
    def from_file(cls, path: Path, definition: str | None = None, **options: Any) -> SchemaChecker:
        """A checker of the schema in the UTF-8 JSON file ``path`` (options: :meth:`__init__`)."""
        return cls(json.loads(path.read_text(encoding="utf-8")), definition, **options)

    def is_valid(self, doc: Any) -> bool:
        """Whether ``doc`` has no fault."""
        return bool(self._validator.is_valid(doc))

    def first_fault(self, doc: Any, where: str = "", fields: Mapping[str, str] | None = None) -> SchemaFault | None:
        """The first fault of ``doc`` in reading order, or ``None`` when it is valid.

        Args:
            where: the path of ``doc`` in a larger document, put before every fault's path.
            fields: template fields of the caller (e.g. ``seats``).
        """
        if self._validator.is_valid(doc):  # the common case: no error objects built
            return None
        errors = list(self._validator.iter_errors(doc))
        # min() keeps the first of equals: at one place the schema's keyword order decides ('type' first)
        error = min(errors, key=lambda e: document_order(doc, e.absolute_path))
        return self._fault(doc, error, where, fields or {})

    def _fault(self, doc: Any, error: ValidationError, where: str, given: Mapping[str, str]) -> SchemaFault:
        schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
        keyword = str(error.validator)
        path: list[str | int] = list(error.absolute_path)
        value = error.instance
        fields = _Fields(given)
        fields.update(value=self._quote(value), limit=self._limit(error.validator_value))
        if isinstance(value, list | str | dict):
            fields["count"] = str(len(value))
        if keyword == "type":
            wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
            fields["types"] = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in wanted)
        key: str | None = None
        if keyword == "required" and isinstance(value, dict):
            key = next((k for k in error.validator_value if k not in value), None)
        elif keyword == "additionalProperties" and isinstance(value, dict):
            allowed = list(schema.get("properties", {}))
            key = next((k for k in value if k not in allowed), None)
            fields["allowed"] = ", ".join(allowed)
        if key is not None:
            fields["key"] = repr(key)
            if keyword != "required" or not self._missing_key_at_object:
                path.append(key)
        up = int(schema.get("x-up", 0))
        if up:
            del path[len(path) - up:]
        if "x-at" in schema:
            path.append(str(schema["x-at"]))
        whole = _at(doc, path)
        fields["whole"] = self._quote(whole)
        if self._describe is not None:  # the value reported (an action with two kinds), then the value at fault
            fields.update(self._describe(whole))
            fields.update(self._describe(value))
        template = schema.get("x-messages", {}).get(keyword) or _DEFAULT_MESSAGES.get(keyword)
        message = template.format_map(fields) if template else f"{fields['value']} is refused: {error.message}"
        place = path_text(path)
        if where:
            place = f"{where}{place}" if place.startswith("[") or not place else f"{where}.{place}"
        return SchemaFault(place, message, keyword, tuple(path))

    @staticmethod
    def _limit(limit: Any) -> str:
        """A keyword's own value as a message shows it: ``1``, ``"take"``, ``C, D, H, S`` (an enum's)."""
        if isinstance(limit, list):
            return ", ".join(str(x) for x in limit)
        try:
            return json.dumps(limit, ensure_ascii=False) if not isinstance(limit, int | float) else str(limit)
        except (TypeError, ValueError):
            return str(limit)


def _at(doc: Any, path: Iterable[str | int]) -> Any:
    """The value at ``path`` in ``doc`` (``None`` past its end)."""
    node = doc
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None
    return node
