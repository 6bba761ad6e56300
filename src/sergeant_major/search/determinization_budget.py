"""The errors and the work budget of a determinization (:func:`~sergeant_major.search.determinization.resample`)."""

from __future__ import annotations

from dataclasses import dataclass

from sergeant_major.core.errors import SergeantMajorError


class ResampleError(SergeantMajorError):
    """The view admits no consistent deal (it was not built from a legal game), or sampling gave up."""


class BudgetExhausted(ResampleError):
    """A :class:`Budget` passed to :func:`resample` ran out before a consistent deal was found."""


@dataclass
class Budget:
    """A cap, in counts of work, on the :func:`resample` calls that share it - never wall time, so the same
    generator and budget give the same samples on any machine, however loaded.

    The unit is one *step*: a world drawn (step (2) of the module docstring), a completion attempt (step (3)), a
    draw of the unseen gives of a ``give=lowest`` round (up to :data:`PLAN_TRIES` per completion) or a return
    walked back (up to :data:`RETURN_STEPS` per run). A step costs about 0.05-0.3 ms. Most views need two steps
    per sample (a world, a completion); views after a large exchange the seat did not see (``give=lowest``) can
    need hundreds of thousands.

    Attributes:
        steps: steps allowed in all (``>= 0``); a call that would take one more raises :class:`BudgetExhausted`.
        used: steps taken so far by the calls given this budget (``0..steps``).
        draws: worlds drawn so far by those calls; ``completions``: completion attempts; ``samples``: deals
            returned (all ``>= 0``, counted in ``used`` except ``samples``).

    Raises:
        ValueError: quoting ``steps`` when it is not an int ``>= 0``.
    """

    steps: int
    used: int = 0
    draws: int = 0
    completions: int = 0
    samples: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.steps, bool) or not isinstance(self.steps, int) or self.steps < 0:
            raise ValueError(f"Budget: steps={self.steps!r} must be an int >= 0")

    @property
    def left(self) -> int:
        """Steps still allowed (``0..steps``)."""
        return max(0, self.steps - self.used)

    def take_step(self) -> None:
        """Take one step, or raise :class:`BudgetExhausted` (changing nothing) when none is left."""
        if self.used >= self.steps:
            raise BudgetExhausted(f"the budget of {self.steps} resample steps ran out before a consistent deal was found")
        self.used += 1
