"""Is this machine steady enough to measure CPU per move? A fixed piece of work, timed 20 times.

    .venv/bin/python bench/reference.py

The capacity figures (``bench/ws_bench.py``, ``bench/move_cost.py``) are CPU time per move.
The same code has measured 2 to 10 ms a move on machines of the same kind, and on one machine
an hour apart. This times the same pure-Python work (the legal plays of every turn of 20
seeded random games, no I/O, the engine's remembered plays bypassed) 20 times in a row and
prints the fastest, the median and the slowest. On a steady machine the median is within a
few per cent of the fastest; where it is far above it, the machine itself runs Python at
changing speeds from one second to the next (seen: 113 ms fastest, 121-212 ms median
between five runs a minute apart), and a CPU-per-move figure measured there says more about
the machine than about the code: compare two versions only back to back, several times.
``ws_bench`` prints this before and after its run.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.bots.selfplay import move_states  # noqa: E402
from games.engine.moves import _legal_plays  # noqa: E402

GAMES, SEED, REPEAT = 20, 20261126, 20
STEADY = 1.10  # median / fastest at most this: a steady machine

generate = _legal_plays.__wrapped__  # the engine's remembered plays would be timed otherwise


def timings() -> list:
    """Milliseconds of CPU (this process) for each of ``REPEAT`` runs of the reference work."""
    cases = [(s.position, *s.dice) for s in move_states(0, SEED, cube=False, games=GAMES)]
    out = []
    for _ in range(REPEAT):
        start = time.process_time()
        for position, d1, d2 in cases:
            generate(position, d1, d2)
        out.append(1000 * (time.process_time() - start))
    return out


def describe(ms: list | None = None) -> str:
    ms = ms or timings()
    fastest, median = min(ms), statistics.median(ms)
    verdict = "steady" if median <= STEADY * fastest else "NOT steady: compare versions back to back only"
    return (f"machine reference (bench/reference.py) {fastest:.0f} ms fastest, {median:.0f} median, "
            f"{max(ms):.0f} slowest: {verdict}")


if __name__ == "__main__":
    print(describe())
