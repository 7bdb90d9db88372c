"""The checker-play candidate filter: gnubg 1.07's analysis default (MOVEFILTER_NORMAL), at
least as wide at every depth. The evaluator's scoring is replaced by a recorder, so what is
checked is which boards are scored at which ply."""
from __future__ import annotations

import pytest

from games.analysis import sage_eval
from games.analysis.sage_eval import FILTERS, SageEvaluator


def _evaluator(ply, calls):
    ev = SageEvaluator.__new__(SageEvaluator)  # no networks: post_move is recorded
    ev.ply = ply

    def post_move(boards, ctx, depth):
        calls.append((depth, list(boards)))
        return [(-0.001 * int(b[0]) - 0.01 * depth, ()) for b in boards]

    ev.post_move = post_move
    return ev


# twelve plays at 0-ply: equities 0.00, -0.02, ..., -0.22 (the first nine within 0.16)
ZERO = [((f"{k:02d}",), -0.02 * k, ()) for k in range(12)]
PLAYED = ("11",)  # the worst: kept whatever the filter says


def _run(ply):
    calls = []
    out = _evaluator(ply, calls).checker([], (3, 1), None, keep=[PLAYED], zero_ply=ZERO)
    return calls, out


def test_2_ply_scores_gnubgs_eight_candidates_at_2_ply():
    calls, out = _run(2)
    assert [depth for depth, _ in calls] == [2]  # gnubg skips 1-ply at 2-ply
    scored = set(calls[0][1])
    assert scored == {(f"{k:02d}",) for k in range(8)} | {PLAYED}
    assert [c.ply for c in out[:9]] == [2] * 9 and all(c.ply == 0 for c in out[9:])


def test_1_and_3_ply():
    calls, _ = _run(1)
    assert [(d, len(b)) for d, b in calls] == [(1, 9)]  # 8 within 0.16, and the play made
    calls, _ = _run(3)
    assert [d for d, _ in calls] == [2, 3]
    assert len(calls[0][1]) == 9
    # at 3-ply: of the 2-ply scores, the best 2 within 0.04, and the play made
    assert set(calls[1][1]) == {("00",), ("01",), PLAYED}


@pytest.mark.parametrize("ply", [1, 2, 3])
def test_at_least_as_wide_as_gnubgs_analysis_default(ply):
    """gnubg 1.07 MOVEFILTER_NORMAL: 8 within 0.16 from 0-ply; at 3-ply, 2 within 0.04 from 2-ply."""
    gnubg = {1: ((8, 0.16),), 2: ((8, 0.16), None), 3: ((8, 0.16), None, (2, 0.04))}[ply]
    ours = FILTERS[ply]
    assert len(ours) == len(gnubg)
    for mine, theirs in zip(ours, gnubg):
        if theirs is None:
            assert mine is None  # nothing scored at a ply gnubg skips (its candidates go deeper)
        else:
            assert mine[0] >= theirs[0] and mine[1] >= theirs[1]


def test_a_forced_play_is_not_looked_at_deeper():
    calls = []
    out = _evaluator(2, calls).checker([], (3, 1), None, zero_ply=ZERO[:1])
    assert calls == [] and [c.ply for c in out] == [0]
    assert sage_eval.FILTERS[0] == ()
