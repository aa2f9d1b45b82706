"""Progress output of long commands, with tqdm on stderr (the one progress library of the command
line; ``docs/explore.md``): counted work gets a bar (:func:`bar`), work with no count a running
clock (:func:`elapsed`). On a terminal only, except :func:`elapsed` with ``always``, which prints a
start and an end line elsewhere too (CI logs)."""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager


def interactive() -> bool:
    return sys.stderr.isatty()


def bar(total: int | None, desc: str, unit: str = "it", disable: bool | None = None):
    """A tqdm bar on stderr (off when stderr is not a terminal, unless ``disable`` says)."""
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True,
                disable=not interactive() if disable is None else disable)


@contextmanager
def elapsed(desc: str, always: bool = False):
    """Shows ``desc`` with the time spent while the block runs."""
    if not interactive():
        t0 = time.perf_counter()
        if always:
            print(f"{desc} ...", file=sys.stderr, flush=True)
        yield
        if always:
            print(f"{desc}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        return
    from tqdm import tqdm
    b = tqdm(total=None, desc=desc, bar_format="{desc}: {elapsed}", file=sys.stderr)
    stop = threading.Event()

    def tick():
        while not stop.wait(1.0):
            b.refresh()
    th = threading.Thread(target=tick, daemon=True)
    th.start()
    try:
        yield
    finally:
        stop.set()
        th.join()
        b.close()
