"""Shared test configuration: hypothesis profiles.

``ci`` (loaded by default): modest ``max_examples`` and no deadline, so the property tests stay fast and
never fail on timing. ``dev``: more examples for a local hunt. Choose with ``HYPOTHESIS_PROFILE=dev``.
"""

from __future__ import annotations

import os

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
