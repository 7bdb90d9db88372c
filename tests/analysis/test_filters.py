"""The checker-play candidate filter: gnubg 1.07's analysis default (what ``show analysis``
prints with no settings file: 16 within 0.32 from 0-ply, and at 3-ply 4 within 0.08 from
2-ply), at least as wide at every depth. The evaluator's scoring is replaced by a recorder, so
what is checked is which boards are scored at which ply."""
from __future__ import annotations

import os
import re
import subprocess
import tempfile

import pytest

from games.analysis import sage_eval
from games.analysis.sage_eval import FILTERS, SageEvaluator
from tests.support import require_gnubg


def _evaluator(ply, calls):
    ev = SageEvaluator.__new__(SageEvaluator)  # no networks: post_move is recorded
    ev.ply = ply

    def post_move(boards, ctx, depth):
        calls.append((depth, list(boards)))
        return [(-0.001 * int(b[0]) - 0.01 * depth, ()) for b in boards]

    ev.post_move = post_move
    return ev


# twenty-four plays at 0-ply: equities 0.000, -0.015, ..., -0.345 (the first 22 within 0.32)
ZERO = [((f"{k:02d}",), -0.015 * k, ()) for k in range(24)]
PLAYED = ("23",)  # the worst: kept whatever the filter says


def _run(ply, zero=ZERO):
    calls = []
    out = _evaluator(ply, calls).checker([], (3, 1), None, keep=[PLAYED], zero_ply=zero)
    return calls, out


def test_2_ply_scores_gnubgs_sixteen_candidates_at_2_ply():
    calls, out = _run(2)
    assert [depth for depth, _ in calls] == [2]  # gnubg skips 1-ply at 2-ply
    scored = set(calls[0][1])
    assert scored == {(f"{k:02d}",) for k in range(16)} | {PLAYED}
    assert [c.ply for c in out[:17]] == [2] * 17 and all(c.ply == 0 for c in out[17:])


def test_the_window_is_032():
    # plays 0.03 apart: 0.00 ... 0.30 are within 0.32 of the best, 0.33 is not
    zero = [((f"{k:02d}",), -0.03 * k, ()) for k in range(23)] + [(PLAYED, -0.9, ())]
    calls, _ = _run(2, zero)
    assert set(calls[0][1]) == {(f"{k:02d}",) for k in range(11)} | {PLAYED}


def test_1_and_3_ply():
    calls, _ = _run(1)
    assert [(d, len(b)) for d, b in calls] == [(1, 17)]  # 16 within 0.32, and the play made
    calls, _ = _run(3)
    assert [d for d, _ in calls] == [2, 3]
    assert len(calls[0][1]) == 17
    # at 3-ply: of the 2-ply scores, the best 4 within 0.08, and the play made
    assert set(calls[1][1]) == {("00",), ("01",), ("02",), ("03",), PLAYED}


_SHOW = re.compile(r"keep the first (\d+) (\d+)-ply moves and up to (\d+) more moves within equity ([0-9.]+)"
                   r"|Skip pruning for (\d+)-ply moves")


def gnubg_analysis_filters() -> dict:
    """gnubg's own analysis move filters, as ``show analysis`` prints them with no settings file:
    ``{ply: ((count, window) or None, ...)}`` in :data:`FILTERS`' layout."""
    gnubg = require_gnubg()
    with tempfile.TemporaryDirectory() as home:
        proc = subprocess.run([gnubg, "-t", "-q"], input="show analysis\n", capture_output=True, text=True,
                              timeout=120, cwd=home, env={"HOME": home, "PATH": "/usr/bin:/bin:/usr/games"})
    text = proc.stdout.split("Cube decisions:")[0]
    out = {}
    parts = re.split(r"Move filter for (\d+) ply:", text)
    for ply, body in zip(parts[1::2], parts[2::2]):
        steps = {}
        for m in _SHOW.finditer(body):
            if m.group(5) is not None:
                steps[int(m.group(5))] = None
            else:
                steps[int(m.group(2))] = (int(m.group(1)) + int(m.group(3)), float(m.group(4)))
        out[int(ply)] = tuple(steps.get(i) for i in range(int(ply)))
    assert out, proc.stdout[-2000:]
    return out


@pytest.mark.parametrize("ply", [1, 2, 3])
def test_at_least_as_wide_as_gnubgs_analysis_default(ply):
    """What gnubg 1.07 itself uses when it analyses a match (read from gnubg, not copied)."""
    gnubg = gnubg_analysis_filters()[ply]
    ours = FILTERS[ply]
    assert len(ours) == len(gnubg)
    for mine, theirs in zip(ours, gnubg):
        if theirs is None:
            assert mine is None  # nothing scored at a ply gnubg skips (its candidates go deeper)
        else:
            assert mine[0] >= theirs[0] and mine[1] >= theirs[1] - 1e-9


def test_a_forced_play_is_not_looked_at_deeper():
    calls = []
    out = _evaluator(2, calls).checker([], (3, 1), None, zero_ply=ZERO[:1])
    assert calls == [] and [c.ply for c in out] == [0]
    assert sage_eval.FILTERS[0] == ()
