"""pubeval: encoding against a straightforward port of the original, openings, mirror symmetry."""

import numpy as np
import pytest

from games.bots import pubeval
from games.bots.pubeval_weights import WC, WR
from games.engine import Position, format_play, legal_plays


def reference_pubeval(race: bool, pos: list) -> float:
    """Tesauro's original setx() + dot product, transcribed literally (pos[0..27])."""
    if pos[26] == 15:
        return 99999999.0
    x = [0.0] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = pos[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = 1.0
            if n == 1:
                x[5 * jm1 + 1] = 1.0
            if n >= 2:
                x[5 * jm1 + 2] = 1.0
            if n == 3:
                x[5 * jm1 + 3] = 1.0
            if n >= 4:
                x[5 * jm1 + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    w = WR if race else WC
    return sum(a * b for a, b in zip(x, w))


def original_pos(position: Position, mover: str) -> list:
    """The original 28-int array, seen by ``mover``."""
    p = position if mover == "white" else position.mirror()
    board = p.board
    return [-p.black_bar] + [board[i] for i in range(1, 25)] + [p.white_bar, p.white_off, -p.black_off]


@pytest.mark.parametrize(
    "dice,expected",
    [((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7"), ((4, 2), "8/4 6/4"), ((5, 3), "8/3 6/3")],
)
@pytest.mark.parametrize("turn", ["white", "black"])
def test_opening_point_making(dice, expected, turn):
    pos = Position.initial(turn)
    plays = legal_plays(pos, dice)
    assert format_play(pos, plays[pubeval.best_play_index(pos, plays)]) == expected


def test_vectorised_scores_equal_the_original(all_cases):
    for position, dice in all_cases[::7]:
        plays = legal_plays(position, dice)
        race = position.is_race()
        got = pubeval.score_plays(position, plays)
        want = [reference_pubeval(race, original_pos(p.result, position.turn)) for p in plays]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_mirrored_positions_give_mirrored_choices(all_cases):
    checked = 0
    for position, dice in all_cases:
        plays = legal_plays(position, dice)
        if len(plays) < 2:
            continue
        scores = np.sort(pubeval.score_plays(position, plays))
        if scores[-1] - scores[-2] < 1e-9:
            continue  # a tie may break either way
        mirrored = position.mirror()
        mplays = legal_plays(mirrored, dice)
        mine = plays[pubeval.best_play_index(position, plays)].result
        theirs = mplays[pubeval.best_play_index(mirrored, mplays)].result
        assert theirs == mine.mirror()
        checked += 1
    assert checked > 1500
