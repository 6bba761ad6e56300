"""Research interfaces: a stable integer action space, observation encodings, determinization
(``resample``), and adapters for OpenSpiel and PettingZoo (optional extras)."""
