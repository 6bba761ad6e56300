"""The pages' texts (``STRINGS`` in ``static/i18n.js``): each language defines each key once (a key written twice in a
JavaScript object silently keeps the last text) and every English text has a German one."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import sergeant_major.web as web

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`(?:[^`\\]|\\.)*`')
_KEY = re.compile(r"(?:^|[,{])\s*([A-Za-z_]\w*)\s*:", re.MULTILINE)


def _keys_by_language(source: str) -> dict[str, list[str]]:
    """The keys of each language's block of ``STRINGS`` in ``source``, in their order, duplicates kept."""
    body = source.split("const STRINGS = {", 1)[1].split("\n};", 1)[0] + "\n"
    body = _STRING.sub('""', body)  # a text may hold "word:" itself
    out: dict[str, list[str]] = {}
    for lang, block in re.findall(r"^  (\w+): \{(.*?)^  \},?$", body, re.MULTILINE | re.DOTALL):
        out[lang] = _KEY.findall(block)
    return out


def _i18n() -> str:
    return (Path(web.__file__).parent / "static" / "i18n.js").read_text(encoding="utf-8")


def test_each_language_defines_each_text_once() -> None:
    keys = _keys_by_language(_i18n())
    assert set(keys) == {"en", "de"}
    for lang, ks in keys.items():
        assert len(ks) > 100, lang
        twice = [k for k, n in Counter(ks).items() if n > 1]
        assert twice == [], f"{lang} defines {twice} more than once"


def test_every_english_text_has_a_german_one() -> None:
    # German has more: the server's refusals ("err_...") are shown in English as the server words them
    keys = _keys_by_language(_i18n())
    assert set(keys["en"]) - set(keys["de"]) == set()


def test_a_key_written_twice_is_found() -> None:
    src = 'const STRINGS = {\n  en: {\n    a: "x: y", b: "z",\n    a: "w",\n  },\n  de: {\n    a: "v",\n  },\n};\n'
    assert _keys_by_language(src) == {"en": ["a", "b", "a"], "de": ["a"]}


def test_every_refusal_of_a_person_s_name_has_german_texts() -> None:
    """Each code :func:`person_name_refusal` gives (``computer_name``, ``free_seat_name``, ``account_name``,
    ``mixed_script_name``) is said in German where a name is refused: the table page's join (``err_``), the home page's
    seats (``err_create_``), the lobby (``err_lobby_``); and a new account's (``computer_name``, ``mixed_script_name``:
    names with no spaces) on the account page (``err_acc_``)."""
    from sergeant_major.web.tables import person_name_refusal

    names = ("Random", "Free seat 3", "deleted player", "Ann", "\u0410nn")  # the last with a Cyrillic A
    codes = {r[0] for r in (person_name_refusal("n", x, 1) for x in names) if r}
    assert codes == {"computer_name", "free_seat_name", "account_name", "mixed_script_name"}
    german = set(_keys_by_language(_i18n())["de"])
    assert {f"err_{p}{c}" for p in ("", "create_", "lobby_") for c in codes} <= german
    accounts = (Path(web.__file__).parent / "static" / "accounts.js").read_text(encoding="utf-8").split("Object.assign(STRINGS.de", 1)[1]
    assert "err_acc_computer_name:" in accounts and "err_acc_mixed_script_name:" in accounts
