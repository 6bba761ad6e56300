"""The Ctrl-C handling a test sets for itself and for the processes it starts, instead of assuming it.

A shell starts a background job (``pytest ... &``, ``nohup``) with SIGINT ignored; Python then installs no
KeyboardInterrupt handler, and every process started from it inherits the ignored signal through exec."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_as_at_a_terminal() -> Iterator[None]:
    """Within the block SIGINT raises KeyboardInterrupt in this process, as Python sets it up at a terminal, and a
    process started meanwhile begins with SIGINT's default action; the handler before is given back at the end."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if before is not None:  # None: a handler not set from Python, which cannot be set back from here
            signal.signal(signal.SIGINT, before)
