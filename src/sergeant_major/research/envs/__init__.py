"""Reinforcement-learning environments (extra ``pettingzoo``: pettingzoo, gymnasium, numpy).

- :func:`env` / :class:`raw_env`: the PettingZoo AEC environment ``sergeant_major_v0`` (its docstring is
  its page: observation and action tables).
- :class:`SingleSeatEnv`: a Gymnasium environment playing one seat against the computer players.

Observations are :mod:`sergeant_major.research.observation` (``smobs-v1``); actions are the ids of
:mod:`sergeant_major.research.action_space`.
"""

from __future__ import annotations

from sergeant_major.core.errors import install_hint

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"sergeant_major.research.envs needs pettingzoo, gymnasium and numpy ({exc}); "
        "install them with: " + install_hint("pettingzoo")
    ) from exc

from sergeant_major.research.envs.gym_env import SingleSeatEnv
from sergeant_major.research.envs.pettingzoo_env import ENV_NAME, env, raw_env

__all__ = ["env", "raw_env", "SingleSeatEnv", "ENV_NAME"]
