"""Text that comes from other people (players' names, typed input, record files) made safe to show.

A name is shown on other people's terminals and pages: it must not carry control characters (Unicode
category ``Cc``: escape sequences that clear a screen or set a window title) nor the bidirectional
overrides and isolates (``U+202A..U+202E``, ``U+2066..U+2069``) that reorder the text around them.
:func:`name_problem` says why a name is refused; :func:`visible` escapes such characters for a terminal;
:func:`quote` is :func:`repr` that also shows invisible marks (``U+FE0F``...) as escapes, for error messages.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["BIDI_CONTROLS", "LOOKALIKE_SCRIPTS", "normal_name", "mixed_scripts", "is_control", "control_chars", "name_problem", "has_visible", "visible", "quote", "char_text"]

BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional embeddings, overrides and isolates (format characters, category ``Cf``) refused in names."""


def normal_name(name: str) -> str:
    """``name`` as typed made the one text it shows as: Unicode NFKC (fullwidth ``Ｒ`` is ``R``), without format
    characters (category ``Cf``: zero-width space, soft hyphen...), its runs of spaces one space, none at the ends.
    Check :func:`name_problem` on the input first (its control characters are refused, not dropped); ``""`` for a
    name of nothing visible."""
    text = unicodedata.normalize("NFKC", name)
    return " ".join("".join(ch for ch in text if unicodedata.category(ch) != "Cf").split())


LOOKALIKE_SCRIPTS: Final = ("LATIN", "CYRILLIC", "GREEK")
"""The scripts whose letters look alike (Latin ``A``, Cyrillic ``А``, Greek ``Α``): a name mixing them is refused."""


def mixed_scripts(name: str) -> list[tuple[str, str]]:
    """The look-alike scripts (:data:`LOOKALIKE_SCRIPTS`) ``name``'s letters mix, each with its first letter:
    ``[("Cyrillic", "А"), ("Latin", "n")]`` for ``"Аnn"`` with a Cyrillic ``А``; ``[]`` for a name of one script (or of
    none of them: digits, Chinese...). A letter's script is the first word of its Unicode name."""
    found: dict[str, str] = {}
    for ch in name:
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in LOOKALIKE_SCRIPTS and script not in found:
                found[script] = ch
    return [(script.title(), ch) for script, ch in found.items()] if len(found) > 1 else []


def is_control(ch: str) -> bool:
    """Whether the character ``ch`` is a control character (``Cc``) or a bidirectional control (:data:`BIDI_CONTROLS`)."""
    return ch in BIDI_CONTROLS or unicodedata.category(ch) == "Cc"


def control_chars(text: str) -> list[str]:
    """The distinct control characters of ``text`` (see :func:`is_control`), in order of first appearance."""
    seen: list[str] = []
    if text.isprintable():  # no Cc nor Cf character: the common case, at C speed
        return seen
    for ch in text:
        if is_control(ch) and ch not in seen:
            seen.append(ch)
    return seen


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None`` when it can: it holds control characters
    (:func:`is_control`), named by their code points: ``"it contains control characters (U+001B, U+0007)"``; the
    bidirectional ones are called so: ``"it contains a bidirectional control character (U+202E, which reorders the
    text after it)"``."""
    bad = control_chars(name)
    if not bad:
        return None
    codes = ", ".join(_code(c) for c in bad[:5]) + (", ..." if len(bad) > 5 else "")
    if all(c in BIDI_CONTROLS for c in bad):
        kind = "bidirectional control characters" if len(bad) > 1 else "a bidirectional control character"
        return f"it contains {kind} ({codes}, which reorder{'' if len(bad) > 1 else 's'} the text after it)"
    return f"it contains {'control characters' if len(bad) > 1 else 'a control character'} ({codes})"


def _escape(ch: str) -> str:
    o = ord(ch)
    if o < 0x100:
        return f"\\x{o:02x}"
    if o < 0x10000:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"


def visible(text: str) -> str:
    """``text`` with its control characters (:func:`is_control`) written as escapes (``\\x1b``, ``\\u202e``),
    so that printing it never moves a terminal's cursor, clears it or reorders what follows; anything else
    is kept as it is."""
    if text.isprintable() or not any(is_control(ch) for ch in text):
        return text
    return "".join(_escape(ch) if is_control(ch) else ch for ch in text)


_INVISIBLE: Final = frozenset({"Mn", "Me", "Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat in _INVISIBLE or (cat == "Zs" and ch != " ")


def has_visible(text: str) -> bool:
    """Does ``text`` hold a character one can see (not only spaces, format characters, combining marks...)?"""
    return any(not ch.isspace() and not _invisible(ch) for ch in text)


def quote(text: str) -> str:
    """``repr(text)`` with the characters one cannot see on their own (combining marks, variation selectors
    such as ``U+FE0F``, format and control characters, spaces other than the plain one) written as escapes,
    so the text ``Q♥`` followed by two U+FE0F is quoted ``'Q♥\\ufe0f\\ufe0f'``. Equal to ``repr(text)`` for
    ordinary text."""
    r = repr(text)
    if not any(_invisible(ch) for ch in r):
        return r
    return "".join(_escape(ch) if _invisible(ch) else ch for ch in r)


def char_text(ch: str) -> str:
    """One character for a message: quoted when it can be seen (``'X'``), else its code point and Unicode
    name (``U+FE0F VARIATION SELECTOR-16``)."""
    if len(ch) == 1 and _invisible(ch):
        name = unicodedata.name(ch, "")
        return f"{_code(ch)} {name}".rstrip()
    return quote(ch)
