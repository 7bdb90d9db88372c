"""The game state machine (GameState / GameRules): worked examples checked by hand.

Points are in the absolute frame of RULES.md: White moves 24 -> 1 (home 1-6),
Black moves 1 -> 24 (home 19-24, Black's own 1-point is absolute 24).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest

from games.engine import (
    BLACK,
    CUBE_OFFERED,
    MOVE,
    OFF,
    OPENING,
    OVER,
    RESIGN_OFFERED,
    TURN,
    WHITE,
    GameRules,
    GameState,
    IllegalAction,
    IllegalPlay,
    Position,
    Step,
)

from tests.engine.game_helpers import (  # noqa: F401 - shared builders
    BLACK_IN_WHITES_HOME,
    BLACK_NONE_OFF,
    BLACK_ONE_OFF,
    at_turn,
    white_bears_off_first,
    finish,
    opened,
    play_first,
    position,
    refused,
    white_to_finish,
)

# -- the opening roll ------------------------------------------------------------------


def test_higher_opening_die_moves_first_with_both_dice():
    g = GameState.new(GameRules())
    assert g.phase == OPENING and g.actor is None
    black_first = g.opening_roll(3, 5)
    assert black_first.phase == MOVE
    assert black_first.first_mover == BLACK and black_first.position.turn == BLACK
    assert black_first.actor == BLACK
    assert black_first.dice == (5, 3)  # the winner's die first, both are played
    assert black_first.turn_number == 1
    assert black_first.position.board == Position.initial().board
    white_first = g.opening_roll(6, 2)
    assert (white_first.first_mover, white_first.dice) == (WHITE, (6, 2))
    # both numbers are played: 6-2 from the start, e.g. 24/18 13/11
    after = white_first.move(WHITE, [Step(24, 18), Step(13, 11)])
    assert after.phase == TURN and after.actor == BLACK
    assert after.position.board[18] == 1 and after.position.board[11] == 1


def test_opening_tie_rerolls_and_changes_nothing_without_automatic_doubles():
    g = GameState.new(GameRules(cube=True))
    for die in range(1, 7):
        tied = g.opening_roll(die, die)
        assert tied == g
        assert tied.phase == OPENING and tied.cube_value == 1 and tied.dice is None
    assert g.opening_roll(4, 4).opening_roll(1, 2).first_mover == BLACK


def test_automatic_doubles_turn_the_centred_cube_up_to_the_configured_count():
    g = GameState.new(GameRules(auto_doubles=2, jacoby=True))
    g = g.opening_roll(3, 3)
    assert (g.cube_value, g.auto_doubles_done, g.phase) == (2, 1, OPENING)
    g = g.opening_roll(5, 5)
    assert (g.cube_value, g.auto_doubles_done) == (4, 2)
    third = g.opening_roll(1, 1)
    assert third == g  # a third tie just re-rolls
    g = g.opening_roll(5, 3)
    # the cube stays in the middle, not turned (Jacoby still applies): both may double
    assert (g.cube_value, g.cube_owner, g.cube_turned) == (4, None, False)
    g = g.move(WHITE, list(g.legal_plays()[0].steps))
    assert g.can_double(BLACK)
    g = g.double(BLACK).take(WHITE)
    assert (g.cube_value, g.cube_owner, g.cube_turned) == (8, WHITE, True)


def test_automatic_doubles_stop_at_the_cube_limit():
    g = GameState.new(GameRules(auto_doubles=3, cube_limit=2))
    g = g.opening_roll(2, 2)
    assert g.cube_value == 2
    assert g.opening_roll(2, 2).cube_value == 2


@pytest.mark.parametrize("rules", [GameRules(cube=False, auto_doubles=2), GameRules(auto_doubles=2, crawford_game=True)])
def test_automatic_doubles_need_a_cube_in_play(rules):
    g = GameState.new(rules)
    assert g.opening_roll(6, 6) == g


def test_opening_roll_refusals():
    g = GameState.new(GameRules())
    refused(g, lambda s: s.opening_roll(0, 3), "bad_dice")
    refused(g, lambda s: s.opening_roll(3, 7), "bad_dice")
    refused(g, lambda s: s.opening_roll(3.0, 1), "bad_dice")
    # nobody is on roll before the opening roll: the engine may call that either code
    for action in (lambda s: s.roll(WHITE, (3, 1)), lambda s: s.double(WHITE), lambda s: s.move(BLACK, [])):
        with pytest.raises(IllegalAction) as info:
            action(g)
        assert info.value.code in ("wrong_phase", "not_your_turn")
    assert g == GameState.new(GameRules())
    started = g.opening_roll(3, 1)
    refused(started, lambda s: s.opening_roll(3, 1), "wrong_phase")


# -- doubling -------------------------------------------------------------------------------


def test_double_take_and_redouble():
    g = opened()  # Black on roll, cube centred
    assert g.can_double(BLACK) and not g.can_double(WHITE) and g.needs_decision()
    refused(g, lambda s: s.double(WHITE), "not_your_turn")
    rolled = g.roll(BLACK, (6, 4))
    refused(rolled, lambda s: s.double(BLACK), "wrong_phase")  # not after rolling
    offered = g.double(BLACK)
    assert offered.phase == CUBE_OFFERED and offered.actor == WHITE
    assert offered.cube_value == 1  # nothing changes until the answer
    refused(offered, lambda s: s.take(BLACK), "not_your_turn")
    refused(offered, lambda s: s.roll(BLACK, (6, 4)), "wrong_phase")
    taken = offered.take(WHITE)
    assert (taken.cube_value, taken.cube_owner, taken.cube_turned) == (2, WHITE, True)
    assert taken.phase == TURN and taken.actor == BLACK  # the doubler now rolls
    refused(taken, lambda s: s.double(BLACK), "not_cube_owner")
    assert not taken.needs_decision()
    g = play_first(taken, (6, 4))
    assert g.actor == WHITE and g.can_double(WHITE)
    g = g.double(WHITE).take(BLACK)  # the owner redoubles
    assert (g.cube_value, g.cube_owner) == (4, BLACK)
    refused(g, lambda s: s.double(WHITE), "not_cube_owner")


def test_drop_loses_the_value_before_the_double():
    g = opened().double(BLACK).take(WHITE)  # cube 2, White owns
    g = play_first(g, (6, 4))
    dropped = g.double(WHITE).drop(BLACK)  # White redoubles to 4, Black passes
    assert dropped.phase == OVER and dropped.is_over
    r = dropped.result
    assert (r.winner, r.kind, r.reason, r.cube_value, r.points) == (WHITE, "single", "drop", 2, 2)
    refused(dropped, lambda s: s.roll(BLACK, (1, 2)), "game_over")
    # a first double dropped is worth 1
    first = opened().double(BLACK).drop(WHITE).result
    assert (first.winner, first.points) == (BLACK, 1)


def test_drop_ignores_jacoby_and_gammonish_positions():
    # Black is about to be gammoned, but a drop is always a single game at the cube's value
    g = white_to_finish(GameRules(jacoby=False), BLACK_IN_WHITES_HOME)
    r = g.double(WHITE).drop(BLACK).result
    assert (r.winner, r.kind, r.points) == (WHITE, "single", 1)


def test_cube_limit_64_and_no_limit():
    pos = Position.initial()
    at_32 = at_turn(GameRules(), pos, cube_value=32, cube_owner=WHITE, cube_turned=True)
    assert at_32.can_double(WHITE)
    g = at_32.double(WHITE).take(BLACK)
    assert (g.cube_value, g.cube_owner) == (64, BLACK)
    at_64 = at_turn(GameRules(), pos.with_turn(BLACK), cube_value=64, cube_owner=BLACK, cube_turned=True)
    assert not at_64.can_double(BLACK)
    refused(at_64, lambda s: s.double(BLACK), "cube_limit")
    unlimited = replace(at_64, rules=GameRules(cube_limit=None))
    assert unlimited.can_double(BLACK)
    assert unlimited.double(BLACK).take(WHITE).cube_value == 128


def test_no_cube_in_the_crawford_game_or_without_the_cube():
    crawford = at_turn(GameRules(crawford_game=True), Position.initial())
    assert not crawford.rules.cube_in_play and not crawford.can_double(WHITE)
    assert not crawford.needs_decision()
    refused(crawford, lambda s: s.double(WHITE), "crawford_game")
    no_cube = at_turn(GameRules(cube=False), Position.initial())
    assert not no_cube.can_double(WHITE)
    refused(no_cube, lambda s: s.double(WHITE), "no_cube")


# -- beaver and raccoon (money options) -------------------------------------------------------


MONEY = GameRules(beaver=True, raccoon=True, jacoby=True)


def test_beaver_then_raccoon():
    g = at_turn(MONEY, Position.initial())
    offered = g.double(WHITE)
    assert offered.can_beaver(BLACK) and not offered.can_beaver(WHITE)
    refused(offered, lambda s: s.beaver(WHITE), "not_your_turn")
    beavered = offered.beaver(BLACK)
    # Black takes and redoubles at once: 1 -> 2 -> 4, and keeps the cube
    assert (beavered.cube_value, beavered.cube_owner, beavered.cube_turned) == (4, BLACK, True)
    assert beavered.phase == TURN and beavered.actor == WHITE
    assert beavered.raccoon_open and beavered.can_raccoon(WHITE) and beavered.needs_decision()
    assert not beavered.can_double(WHITE)
    refused(beavered, lambda s: s.double(WHITE), "not_cube_owner")
    refused(beavered, lambda s: s.raccoon(BLACK), "not_your_turn")
    raccooned = beavered.raccoon(WHITE)
    assert (raccooned.cube_value, raccooned.cube_owner) == (8, BLACK)
    assert not raccooned.raccoon_open and raccooned.phase == TURN and raccooned.actor == WHITE
    refused(raccooned, lambda s: s.raccoon(WHITE), "no_beaver_to_raccoon")
    assert not raccooned.needs_decision()  # White now just rolls
    g = play_first(raccooned, (3, 1))
    assert g.can_double(BLACK)  # the beaverer owns the cube
    assert g.double(BLACK).take(WHITE).cube_value == 16


def test_beaver_not_raccooned_closes_when_the_doubler_rolls():
    beavered = at_turn(MONEY, Position.initial()).double(WHITE).beaver(BLACK)
    rolled = beavered.roll(WHITE, (3, 1))
    assert not rolled.raccoon_open and rolled.cube_value == 4
    refused(rolled, lambda s: s.raccoon(WHITE), "wrong_phase")
    after = rolled.move(WHITE, [Step(8, 5), Step(6, 5)])
    refused(after, lambda s: s.raccoon(BLACK), "no_beaver_to_raccoon")


def test_beaver_and_raccoon_need_their_options():
    no_beaver = at_turn(GameRules(), Position.initial()).double(WHITE)
    assert not no_beaver.can_beaver(BLACK)
    refused(no_beaver, lambda s: s.beaver(BLACK), "no_beaver")
    beaver_only = at_turn(GameRules(beaver=True), Position.initial()).double(WHITE).beaver(BLACK)
    assert beaver_only.cube_value == 4 and not beaver_only.raccoon_open
    refused(beaver_only, lambda s: s.raccoon(WHITE), "no_raccoon")
    # a raccoon without a beaver before it
    plain = at_turn(MONEY, Position.initial())
    refused(plain, lambda s: s.raccoon(WHITE), "no_beaver_to_raccoon")


def test_beaver_respects_the_cube_limit():
    g = at_turn(GameRules(beaver=True, cube_limit=4), Position.initial(), cube_value=2, cube_owner=WHITE)
    offered = g.double(WHITE)  # 2 -> 4 is allowed, a beaver to 8 is not
    assert not offered.can_beaver(BLACK)
    refused(offered, lambda s: s.beaver(BLACK), "cube_limit")
    assert offered.take(BLACK).cube_value == 4


# -- scoring: kinds, cube, Jacoby ---------------------------------------------------------------


@pytest.mark.parametrize(
    "black, black_bar, double_bg, kind, multiplier",
    [
        (BLACK_ONE_OFF, 0, False, "single", 1),
        (BLACK_NONE_OFF, 0, False, "gammon", 2),
        (BLACK_IN_WHITES_HOME, 0, False, "backgammon", 3),
        (BLACK_IN_WHITES_HOME, 0, True, "backgammon", 3),  # double backgammon is the bar only
        ({19: 14}, 1, False, "backgammon", 3),  # 14 on board + 1 on the bar, none off
        ({19: 14}, 1, True, "double_backgammon", 4),
    ],
)
@pytest.mark.parametrize("cube", [1, 4])
def test_win_kinds_times_the_cube(black, black_bar, double_bg, kind, multiplier, cube):
    rules = GameRules(double_backgammon=double_bg)
    g = white_to_finish(rules, black, black_bar, cube_value=cube, cube_owner=WHITE if cube > 1 else None,
                        cube_turned=cube > 1)
    over = finish(g)
    assert over.phase == OVER and over.position.white_off == 15
    r = over.result
    assert (r.winner, r.kind, r.reason, r.cube_value) == (WHITE, kind, "bearoff", cube)
    assert r.points == multiplier * cube


def test_black_wins_a_backgammon_too():
    # mirror: Black's last checker on its 1-point (absolute 24); White has one on the bar
    pos = position({6: 14}, {24: 1}, white_bar=1, turn=BLACK)
    g = at_turn(GameRules(), pos, first_mover=BLACK)
    g = g.roll(BLACK, (1, 1))
    over = g.move(BLACK, [Step(24, OFF)])
    assert (over.result.winner, over.result.kind, over.result.points) == (BLACK, "backgammon", 3)


def test_jacoby_gammon_counts_single_until_the_cube_is_turned():
    rules = GameRules(jacoby=True)
    untouched = finish(white_to_finish(rules, BLACK_NONE_OFF)).result
    assert (untouched.kind, untouched.points) == ("gammon", 1)
    backgammon = finish(white_to_finish(rules, BLACK_IN_WHITES_HOME)).result
    assert (backgammon.kind, backgammon.points) == ("backgammon", 1)
    # White doubles, Black takes (cube 2, Black's): now the gammon counts 2 x 2
    taken = white_to_finish(rules, BLACK_NONE_OFF).double(WHITE).take(BLACK)
    assert taken.actor == WHITE and taken.cube_turned
    assert finish(taken).result.points == 4
    # and without the Jacoby rule the untouched gammon is 2
    assert finish(white_to_finish(GameRules(), BLACK_NONE_OFF)).result.points == 2


def test_jacoby_automatic_double_is_not_a_turned_cube():
    # seed 003: after automatic doubles "the Jacoby Rule is still in effect"
    g = GameState.new(GameRules(jacoby=True, auto_doubles=1), position({1: 1}, BLACK_NONE_OFF))
    g = g.opening_roll(3, 3).opening_roll(2, 1)  # cube 2, then White starts with 2-1
    r = g.move(WHITE, [Step(1, OFF)]).result
    assert (r.kind, r.cube_value, r.points) == ("gammon", 2, 2)  # counted single, times 2


# -- resignation -------------------------------------------------------------------------------


def test_offer_reject_and_accept_a_resignation():
    g = opened()  # Black on roll
    offer = g.offer_resignation(BLACK, 2)
    assert offer.phase == RESIGN_OFFERED and offer.actor == WHITE
    assert offer.resign_offer == (BLACK, 2) and offer.resume_phase == TURN
    refused(offer, lambda s: s.accept_resignation(BLACK), "not_your_turn")  # not one's own offer
    refused(offer, lambda s: s.reject_resignation(BLACK), "not_your_turn")
    refused(offer, lambda s: s.roll(BLACK, (3, 1)), "wrong_phase")
    refused(offer, lambda s: s.double(BLACK), "wrong_phase")
    refused(offer, lambda s: s.move(BLACK, []), "wrong_phase")
    refused(offer, lambda s: s.take(WHITE), "wrong_phase")
    refused(offer, lambda s: s.offer_resignation(BLACK, 1), "resign_pending")
    refused(offer, lambda s: s.offer_resignation(WHITE, 1), "resign_pending")
    back = offer.reject_resignation(WHITE)
    assert back == g
    accepted = g.offer_resignation(BLACK, 1).accept_resignation(WHITE)
    r = accepted.result
    assert (accepted.phase, r.winner, r.kind, r.reason, r.points) == (OVER, WHITE, "single", "resign", 1)


def test_resignation_offered_while_the_dice_are_out_resumes_the_move():
    g = opened().roll(BLACK, (6, 5))
    offer = g.offer_resignation(WHITE, 3)  # the side not on roll may offer too
    assert offer.actor == BLACK and offer.resume_phase == MOVE
    back = offer.reject_resignation(BLACK)
    assert back == g and back.phase == MOVE and back.dice == (6, 5)
    r = g.offer_resignation(WHITE, 3).accept_resignation(BLACK).result
    assert (r.winner, r.kind, r.points) == (BLACK, "backgammon", 3)


def test_resignation_is_worth_level_times_cube_with_jacoby():
    rules = GameRules(jacoby=True)
    g = at_turn(rules, Position.initial())
    r = g.offer_resignation(BLACK, 2).accept_resignation(WHITE).result
    assert (r.kind, r.points) == ("gammon", 1)  # Jacoby: cube not turned
    turned = g.double(WHITE).take(BLACK)  # cube 2
    r = turned.offer_resignation(BLACK, 2).accept_resignation(WHITE).result
    assert (r.kind, r.cube_value, r.points) == ("gammon", 2, 4)
    r = turned.offer_resignation(WHITE, 3).accept_resignation(BLACK).result
    assert (r.winner, r.points) == (BLACK, 6)


def test_resignation_refusals():
    g = opened()
    refused(g, lambda s: s.offer_resignation(BLACK, 0), "bad_level")
    refused(g, lambda s: s.offer_resignation(BLACK, 4), "bad_level")
    refused(g, lambda s: s.offer_resignation("red", 1), "bad_color")
    refused(g, lambda s: s.accept_resignation(BLACK), "wrong_phase")  # nothing was offered
    refused(GameState.new(), lambda s: s.offer_resignation(WHITE, 1), "wrong_phase")
    refused(g.double(BLACK), lambda s: s.offer_resignation(WHITE, 1), "wrong_phase")
    over = g.double(BLACK).drop(WHITE)
    refused(over, lambda s: s.offer_resignation(WHITE, 1), "game_over")
    refused(over, lambda s: s.resign(WHITE), "game_over")


@pytest.mark.parametrize(
    "black, black_bar, double_bg, kind, points",
    [
        (BLACK_ONE_OFF, 0, False, "single", 1),  # Black has a checker off
        (BLACK_NONE_OFF, 0, False, "gammon", 2),  # none off, nothing in White's home
        (BLACK_IN_WHITES_HOME, 0, False, "backgammon", 3),
        ({19: 14}, 1, False, "backgammon", 3),
        ({19: 14}, 1, True, "double_backgammon", 4),
    ],
)
def test_plain_resign_concedes_the_most_the_position_could_lose(black, black_bar, double_bg, kind, points):
    g = white_to_finish(GameRules(double_backgammon=double_bg), black, black_bar)
    assert g.max_resign_level(BLACK) == points
    r = g.resign(BLACK).result
    assert (r.winner, r.kind, r.reason, r.points) == (WHITE, kind, "resign", points)


def test_plain_resign_with_jacoby_and_cube():
    g = white_to_finish(GameRules(jacoby=True), BLACK_NONE_OFF)
    assert g.resign(BLACK).result.points == 1
    assert g.double(WHITE).take(BLACK).resign(BLACK).result.points == 4


# -- persistence and refusals -----------------------------------------------------------------


def random_game_states(seed: int, rules: GameRules):
    """Every state of a random game with cube and resignation actions along the way."""
    rng = random.Random(seed)
    g = GameState.new(rules)
    yield g
    while g.phase == OPENING:
        g = g.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        yield g
    while not g.is_over:
        actor = g.actor
        if g.phase == TURN:
            if g.can_raccoon(actor) and rng.random() < 0.5:
                g = g.raccoon(actor)
            elif g.can_double(actor) and rng.random() < 0.1:
                g = g.double(actor)
            elif rng.random() < 0.03:
                g = g.offer_resignation(rng.choice([WHITE, BLACK]), rng.randint(1, 3))
            else:
                g = g.roll(actor, (rng.randint(1, 6), rng.randint(1, 6)))
        elif g.phase == MOVE:
            g = g.move(actor, list(rng.choice(g.legal_plays()).steps))
        elif g.phase == CUBE_OFFERED:
            if g.can_beaver(actor) and rng.random() < 0.3:
                g = g.beaver(actor)
            else:
                g = g.take(actor) if rng.random() < 0.9 else g.drop(actor)
        elif g.phase == RESIGN_OFFERED:
            g = g.reject_resignation(actor) if rng.random() < 0.9 else g.accept_resignation(actor)
        yield g


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "rules",
    [GameRules(), GameRules(beaver=True, raccoon=True, jacoby=True, auto_doubles=2, last_roll=True,
                            double_backgammon=True, cube_limit=None)],
)
def test_to_dict_from_dict_round_trip_at_every_step(seed, rules):
    phases = set()
    for state in random_game_states(seed, rules):
        data = state.to_dict()
        wire = json.loads(json.dumps(data))
        restored = GameState.from_dict(wire)
        assert restored == state
        assert restored.to_dict() == data  # including what equality ignores
        phases.add(state.phase)
    assert OVER in phases and MOVE in phases and TURN in phases


def test_round_trip_in_every_phase():
    g = opened()
    states = [
        GameState.new(),
        g,
        g.roll(BLACK, (6, 5)),
        g.double(BLACK),
        g.offer_resignation(WHITE, 2),
        at_turn(MONEY, Position.initial()).double(WHITE).beaver(BLACK),
        g.double(BLACK).drop(WHITE),
        white_bears_off_first({24: 3}),
    ]
    for state in states:
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_illegal_plays_raise_illegal_play_and_change_nothing():
    g = GameState.new(GameRules()).opening_roll(3, 1)
    before = copy.deepcopy(g)
    with pytest.raises(IllegalPlay) as info:
        g.move(WHITE, [Step(24, 20), Step(8, 7)])  # 24/20 is not a 3 or a 1
    assert info.value.code == "no_matching_die" and isinstance(info.value, ValueError)
    with pytest.raises(IllegalPlay) as info:
        g.move(WHITE, [Step(8, 5)])  # both dice can be played
    assert info.value.code == "must_use_both_dice"
    assert g == before
    refused(g, lambda s: s.move(BLACK, [Step(1, 4)]), "not_your_turn")
    refused(g, lambda s: s.roll(WHITE, (1, 2)), "wrong_phase")


def test_refusals_carry_their_codes():
    g = opened()
    refused(g, lambda s: s.roll("green", (1, 2)), "bad_color")
    refused(g, lambda s: s.roll(BLACK, (0, 2)), "bad_dice")
    refused(g, lambda s: s.roll(BLACK, (1, 2, 3)), "bad_dice")
    refused(g, lambda s: s.roll(WHITE, (1, 2)), "not_your_turn")
    # Black is on roll: no double is offered, so there is nothing to take, drop or beaver
    refused(g, lambda s: s.take(BLACK), "wrong_phase")
    refused(g, lambda s: s.drop(BLACK), "wrong_phase")
    refused(g, lambda s: s.beaver(BLACK), "wrong_phase")
    refused(g, lambda s: s.move(BLACK, []), "wrong_phase")
    over = g.double(BLACK).drop(WHITE)
    for action in (
        lambda s: s.roll(BLACK, (1, 2)),
        lambda s: s.double(BLACK),
        lambda s: s.take(WHITE),
        lambda s: s.forfeit(WHITE),
        lambda s: s.abort(),
    ):
        refused(over, action, "game_over")
    refused(over, lambda s: s.opening_roll(1, 2), "wrong_phase")


def test_forfeit_and_abort():
    g = white_to_finish(GameRules(), BLACK_NONE_OFF)
    r = g.forfeit(BLACK).result
    assert (r.winner, r.kind, r.reason, r.points) == (WHITE, "gammon", "forfeit", 2)
    r = g.abort().result
    assert (r.winner, r.kind, r.reason, r.points) == (None, "tie", "aborted", 0)


def test_a_pass_is_the_empty_play():
    # Black is on the bar against White's closed board: 6-6 cannot enter
    pos = position({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}, {12: 14}, black_bar=1, turn=BLACK)
    g = at_turn(GameRules(), pos, first_mover=WHITE)
    rolled = g.roll(BLACK, (6, 6))
    assert [list(p.steps) for p in rolled.legal_plays()] == [[]]
    with pytest.raises(IllegalPlay) as info:
        rolled.move(BLACK, [Step("bar", 6)])
    assert info.value.code == "blocked_point"
    after = rolled.move(BLACK, [])
    assert after.phase == TURN and after.actor == WHITE and after.position.black_bar == 1
    assert after.last_play == () and after.last_mover == BLACK


@pytest.mark.parametrize("level", [{}, [1], 1.0, True, "2", None, 0, 4])
def test_resignation_levels_must_be_1_2_or_3(level):
    g = GameState.new(GameRules()).opening_roll(3, 1)
    with pytest.raises(IllegalAction) as info:
        g.offer_resignation(WHITE, level)
    assert info.value.code == "bad_level"
