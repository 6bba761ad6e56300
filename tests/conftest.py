"""Shared test configuration: hypothesis profiles, the markers' skips and the Ctrl-C fixture.

``ci`` (loaded by default): modest ``max_examples`` and no deadline, so the property tests stay fast and
never fail on timing. ``dev``: more examples for a local hunt. Choose with ``HYPOTHESIS_PROFILE=dev``.

Markers (registered in pyproject.toml): ``browser``, ``postgres``, ``cluster`` and ``slow``; the quick run is
``python -m pytest -m "not browser and not postgres and not cluster and not slow"``. A ``postgres`` test is
skipped, with the reason, when ``SM_TEST_POSTGRES_URL`` is not set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from _signalhelp import ctrl_c_as_at_a_terminal as _ctrl_c_as_at_a_terminal
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") is not None and not os.environ.get("SM_TEST_POSTGRES_URL"):
        pytest.skip("SM_TEST_POSTGRES_URL is not set (CI's .ci/run starts PostgreSQL and sets it)")


@pytest.fixture
def ctrl_c_as_at_a_terminal() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in the test, and the processes it starts begin with SIGINT's default action,
    however pytest was started (a background job ignores SIGINT); the handler before is given back after."""
    with _ctrl_c_as_at_a_terminal():
        yield
