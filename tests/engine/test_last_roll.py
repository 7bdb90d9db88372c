"""Seed 002's last-roll rule (a money option): ties, last-roll wins and steals.

Points are in the absolute frame of RULES.md: White moves 24 -> 1 (home 1-6),
Black moves 1 -> 24 (home 19-24).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.engine import BLACK, OFF, OVER, TURN, WHITE, GameRules, GameState, Step
from tests.engine.game_helpers import LAST_ROLL, at_turn, position, refused, white_bears_off_first

# -- the last-roll rule (seed 002, money option) ---------------------------------------------


def test_first_mover_bearing_off_gives_the_other_side_a_last_roll():
    g = white_bears_off_first({24: 2})
    assert g.phase == TURN and g.result is None and not g.is_over
    assert g.actor == BLACK and g.position.white_off == 15
    assert g.last_roll_pending == (WHITE, "single", 2)
    assert not g.can_double(BLACK) and not g.needs_decision()
    refused(g, lambda s: s.double(BLACK), "last_roll")
    # without the option the game is simply over
    plain = white_bears_off_first({24: 2}, GameRules())
    assert plain.phase == OVER and plain.result.winner == WHITE


@pytest.mark.parametrize(
    "black, dice, steps",
    [
        ({24: 1, 23: 1}, (2, 1), [Step(24, OFF), Step(23, OFF)]),  # two checkers, 2-1
        ({19: 1}, (6, 5), [Step(19, OFF)]),  # one checker, 6-5
        ({24: 4}, (1, 1), [Step(24, OFF)] * 4),  # four checkers, doubles
        ({21: 4}, (6, 6), [Step(21, OFF)] * 4),
    ],
)
def test_last_roll_ties(black, dice, steps):
    g = white_bears_off_first(black).roll(BLACK, dice)
    over = g.move(BLACK, steps)
    r = over.result
    assert over.phase == OVER and over.position.black_off == 15
    assert (r.winner, r.kind, r.reason, r.points) == (None, "tie", "last_roll", 0)


@pytest.mark.parametrize(
    "black, dice, steps",
    [
        ({24: 3}, (1, 1), [Step(24, OFF)] * 3),  # three checkers, doubles
        ({22: 1, 24: 1}, (3, 3), [Step(22, OFF), Step(24, OFF)]),
        ({19: 1}, (6, 6), [Step(19, OFF)]),
        ({19: 1, 20: 1, 21: 1}, (6, 6), [Step(19, OFF), Step(20, OFF), Step(21, OFF)]),
    ],
)
def test_last_roll_player_wins_with_doubles_and_three_or_fewer(black, dice, steps):
    g = white_bears_off_first(black)
    g = replace(g, cube_value=2, cube_owner=BLACK, cube_turned=True)
    over = g.roll(BLACK, dice).move(BLACK, steps)
    r = over.result
    assert (r.winner, r.kind, r.reason, r.cube_value, r.points) == (BLACK, "single", "last_roll", 2, 2)


@pytest.mark.parametrize(
    "black, dice",
    [
        ({24: 3}, (2, 1)),  # three checkers, no doubles: two come off
        ({24: 5}, (1, 1)),  # five checkers, doubles: four come off
        ({19: 1, 24: 1}, (2, 1)),  # cannot finish
        ({19: 1, 24: 1}, (1, 1)),  # doubles that do not finish
    ],
)
def test_otherwise_the_first_mover_wins(black, dice):
    g = white_bears_off_first(black).roll(BLACK, dice)
    over = g.move(BLACK, list(g.legal_plays()[0].steps))
    assert over.position.black_off < 15
    r = over.result
    assert (r.winner, r.kind, r.reason, r.points) == (WHITE, "single", "bearoff", 1)
    assert over.last_roll_pending is None


def test_last_roll_keeps_the_gammon_judged_when_the_first_mover_finished():
    # Black had nothing off when White finished: a gammon, even if Black's last roll bears some off
    g = white_bears_off_first({24: 15})
    assert g.last_roll_pending == (WHITE, "gammon", 15)
    over = g.roll(BLACK, (1, 1)).move(BLACK, [Step(24, OFF)] * 4)
    assert over.position.black_off == 4
    assert (over.result.winner, over.result.kind, over.result.points) == (WHITE, "gammon", 2)


def test_last_roll_from_the_bar_cannot_finish():
    # Black's last checker is on the bar (14 off): 6-6 enters on 6 and runs 6/12/18/24,
    # four pips short of bearing off: White, who finished first, wins a single game.
    g = GameState.new(LAST_ROLL, position({1: 1}, {}, black_bar=1)).opening_roll(2, 1)
    g = g.move(WHITE, [Step(1, OFF)])
    assert g.last_roll_pending == (WHITE, "single", 1)
    over = g.roll(BLACK, (6, 6)).move(BLACK, [Step("bar", 6), Step(6, 12), Step(12, 18), Step(18, 24)])
    assert over.position.board[24] == -1
    r = over.result
    assert (r.winner, r.kind, r.reason, r.points) == (WHITE, "single", "bearoff", 1)


def test_second_mover_finishing_first_ends_the_game_at_once():
    pos = position({1: 3}, {24: 1}, turn=BLACK)
    g = at_turn(LAST_ROLL, pos, first_mover=WHITE)
    over = g.roll(BLACK, (2, 1)).move(BLACK, [Step(24, OFF)])
    assert over.phase == OVER and over.last_roll_pending is None
    assert (over.result.winner, over.result.reason) == (BLACK, "bearoff")


@pytest.mark.parametrize(
    "white, dice, steps",
    [
        ({1: 2}, (2, 2), [Step(1, OFF), Step(1, OFF)]),  # two checkers, two of the four dice
        ({1: 1, 2: 1, 3: 1}, (3, 3), [Step(3, OFF), Step(2, OFF), Step(1, OFF)]),
        ({6: 1, 2: 1}, (6, 6), [Step(6, OFF), Step(2, OFF)]),
        ({3: 3}, (3, 3), [Step(3, OFF)] * 3),
    ],
)
def test_first_mover_steals_the_last_roll(white, dice, steps):
    pos = position(white, {24: 3})
    g = at_turn(LAST_ROLL, pos, first_mover=WHITE)
    over = g.roll(WHITE, dice).move(WHITE, steps)
    assert over.phase == OVER and over.last_roll_pending is None
    r = over.result
    assert (r.winner, r.kind, r.reason, r.points) == (WHITE, "single", "bearoff", 1)


@pytest.mark.parametrize(
    "white, dice, steps",
    [
        # three or fewer, doubles, but all four dice needed: 6/3/off 5/2/off
        ({6: 1, 5: 1}, (3, 3), [Step(6, 3), Step(3, OFF), Step(5, 2), Step(2, OFF)]),
        ({2: 2}, (1, 1), [Step(2, 1), Step(1, OFF), Step(2, 1), Step(1, OFF)]),
        ({1: 4}, (1, 1), [Step(1, OFF)] * 4),  # four checkers
        ({1: 2}, (2, 1), [Step(1, OFF), Step(1, OFF)]),  # no doubles
    ],
)
def test_no_steal_without_spare_dice(white, dice, steps):
    pos = position(white, {24: 3})
    g = at_turn(LAST_ROLL, pos, first_mover=WHITE)
    after = g.roll(WHITE, dice).move(WHITE, steps)
    assert after.position.white_off == 15
    assert after.phase == TURN and after.actor == BLACK
    assert after.last_roll_pending == (WHITE, "single", 3)
    # Black's last roll: 1-1 takes all three off -> Black wins
    r = after.roll(BLACK, (1, 1)).move(BLACK, [Step(24, OFF)] * 3).result
    assert (r.winner, r.reason) == (BLACK, "last_roll")


def test_last_roll_survives_a_save_and_restore():
    g = white_bears_off_first({24: 3})
    restored = GameState.from_dict(json.loads(json.dumps(g.to_dict())))
    assert restored == g
    rolled = restored.roll(BLACK, (1, 1))
    restored = GameState.from_dict(rolled.to_dict())
    r = restored.move(BLACK, [Step(24, OFF)] * 3).result
    assert (r.winner, r.reason) == (BLACK, "last_roll")
