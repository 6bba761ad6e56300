"""Computer players beyond the core's ``random`` and ``heuristic`` (:mod:`sergeant_major.players`)."""
