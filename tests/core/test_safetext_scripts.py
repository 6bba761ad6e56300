"""Names mixing look-alike scripts: :func:`~sergeant_major.core.safetext.mixed_scripts` finds Latin with Cyrillic or
Greek letters in one name, and nothing in a name of one script (accents, digits and other scripts aside)."""

from __future__ import annotations

import pytest

from sergeant_major.core.safetext import mixed_scripts, normal_name


@pytest.mark.parametrize(("name", "found"), [
    ("\u0410nn", [("Cyrillic", "\u0410"), ("Latin", "n")]),  # a Cyrillic A
    ("\u039fmega", [("Greek", "\u039f"), ("Latin", "m")]),  # a Greek Omicron
    ("\u0391\u0430", [("Greek", "\u0391"), ("Cyrillic", "\u0430")]),
])
def test_mixed_scripts_names_each_script_with_its_first_letter(name: str, found: list[tuple[str, str]]) -> None:
    assert mixed_scripts(name) == found


@pytest.mark.parametrize("name", ["Ann", "J\u00fcrgen", "Zo\u00eb 2", "\u0410\u043d\u043d\u0430", "\u0391\u03bd\u03bd\u03b1",
                                  "\u674e Ann", "R2-D2", ""])
def test_a_name_of_one_script_mixes_nothing(name: str) -> None:
    assert mixed_scripts(name) == []


def test_the_micro_sign_is_greek_once_normalised() -> None:
    assert mixed_scripts(normal_name("\u00b5Ann"))[0][0] == "Greek"
