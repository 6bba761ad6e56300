"""The package's errors. Every public error is a :class:`SergeantMajorError`, itself a ``ValueError``,
and its message quotes the bad input."""

from __future__ import annotations

__all__ = [
    "SergeantMajorError",
    "CardParseError",
    "RulesError",
    "UnknownLevelError",
    "IllegalActionError",
    "RecordError",
    "install_hint",
]


def install_hint(extra: str) -> str:
    """How to install an optional extra, for the messages that name a missing one: ``pip install ".[EXTRA]"``
    from the project's source folder (``extra`` as in pyproject.toml: ``web``, ``fast``, ...). The package is
    not published on PyPI, so ``pip install "sergeant-major[EXTRA]"`` finds no distribution."""
    return f'pip install ".[{extra}]" in the sergeant-major source folder'


class SergeantMajorError(ValueError):
    """Base of every error this package raises on bad input."""


class CardParseError(SergeantMajorError):
    """A text that should name a card (or suit) does not."""


class UnknownLevelError(SergeantMajorError):
    """A computer player level that is not registered (:data:`sergeant_major.players.LEVELS`)."""


class RulesError(SergeantMajorError):
    """An unknown preset, an unknown option or value, or a combination that makes no sense."""


class IllegalActionError(SergeantMajorError):
    """An action the rules do not allow now. The state is unchanged.

    Attributes:
        rule: short name of the rule broken, e.g. ``"follow suit"``, ``"not your turn"``.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class RecordError(SergeantMajorError):
    """A game record that is malformed. ``where`` is the JSON path of the fault (e.g. ``deals[2].actions[5]``)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
