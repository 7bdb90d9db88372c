"""Seed 003's "Rules for Chouettes" 1-5, the cube windows and the captain's drop,
each worked out by hand (docs/CHOUETTE.md has the rulings these tests pin)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.chouette import ChouetteRules
from games.engine.chouette.rules import ANSWERS, BUY, CUBE_WINDOW, LAST_MEMBER, MOVE, OVER, ROLL

from tests.engine.chouette_helpers import (
    BOX,
    BOX_NONE_OFF,
    CAPTAIN,
    CREW1,
    CREW2,
    TEAM_IN_BOX_HOME,
    TEAM_NONE_OFF,
    TEAM_ONE_OFF,
    box_to_finish,
    box_window,
    finish,
    pass_window,
    refused,
    team_to_finish,
    team_window,
)


def pending(g):
    return [(p.player, p.reason, p.cubes) for p in g.pending()]


def scores(g):
    return dict(g.running_scores())


def doubled_all_by_box(n=4, rules=None):
    """The box doubles every member at once (the box's window of box_window)."""
    g = box_window(n, rules).double(BOX)
    assert g.phase == ANSWERS
    return g


# -- the team's cube window: in team order, before the captain rolls -----------------------

def test_team_members_decide_in_team_order_then_the_box_answers_each_cube():
    g = team_window(4)
    assert g.window_queue() == (CAPTAIN, CREW1, CREW2)
    assert pending(g) == [(CAPTAIN, "double_decision", (CAPTAIN,))]
    refused(g, lambda s: s.double(CREW1), "not_your_turn")  # not before the captain
    g = g.double(CAPTAIN)
    assert pending(g) == [(CREW1, "double_decision", (CREW1,))]
    g = g.no_double(CREW1).double(CREW2)
    assert g.phase == ANSWERS
    # the box answers the two doubles, one cube at a time, in any order
    assert pending(g) == [(BOX, "double_answer", (CAPTAIN, CREW2))]
    refused(g, lambda s: s.take(BOX), "cube_required")
    g = g.drop(BOX, cube=CREW2)
    assert pending(g) == [(BOX, "double_answer", (CAPTAIN,))]
    refused(g, lambda s: s.take(BOX, cube=CREW2), "already_answered")
    refused(g, lambda s: s.take(BOX, cube=CREW1), "not_your_turn")  # never doubled
    g = g.take(BOX)
    assert g.phase == ROLL and g.roller == CAPTAIN
    assert (g.cube(CAPTAIN).value, g.cube(CAPTAIN).owner, g.cube(CAPTAIN).turned) == (2, "box", True)
    assert g.cube(CREW1).value == 1 and g.cube(CREW1).owner is None
    crew2 = g.cube(CREW2)
    assert (crew2.end, crew2.winner, crew2.points) == ("drop", "team", 1)
    assert scores(g) == {BOX: -1, CAPTAIN: 0, CREW1: 0, CREW2: 1}
    refused(g, lambda s: s.take(BOX, cube=CAPTAIN), "wrong_phase")  # the round is over


def test_the_window_is_skipped_when_nobody_has_access():
    g = team_window(3)
    g = g.double(CAPTAIN).double(CREW1).take(BOX, cube=CAPTAIN).take(BOX, cube=CREW1)
    g = g.roll(CAPTAIN, (6, 5)).move(CAPTAIN, [s.to_dict() for s in g.roll(CAPTAIN, (6, 5)).legal_plays()[0].steps])
    assert g.on_roll == "box" and g.phase == CUBE_WINDOW  # the box owns both cubes: it may redouble
    g = g.no_double(BOX).roll(BOX, (2, 1))
    g = g.move(BOX, [s.to_dict() for s in g.legal_plays()[0].steps])
    assert g.on_roll == "team" and g.phase == ROLL  # both cubes are the box's: nothing to decide


def test_a_member_may_double_after_the_box_redoubled():
    g = team_window(3).no_double(CAPTAIN).double(CREW1).take(BOX)
    g = g.roll(CAPTAIN, (6, 5))
    g = g.move(CAPTAIN, [s.to_dict() for s in g.legal_plays()[0].steps])
    assert g.doublable(BOX) == (CAPTAIN, CREW1)
    g = g.double(BOX, cubes=[CREW1]).take(CREW1)
    assert (g.cube(CREW1).value, g.cube(CREW1).owner) == (4, "team")
    g = g.roll(BOX, (2, 1))
    g = g.move(BOX, [s.to_dict() for s in g.legal_plays()[0].steps])
    assert g.window_queue() == (CAPTAIN, CREW1)  # "if the box has redoubled to 4, you can now double to 8"


# -- the box's window: double any or all members ----------------------------------------------

def test_the_box_doubles_all_members_and_each_answers_on_his_own():
    g = doubled_all_by_box(4)
    assert pending(g) == [(CAPTAIN, "double_answer", (CAPTAIN,)), (CREW1, "double_answer", (CREW1,)),
                          (CREW2, "double_answer", (CREW2,))]
    assert g.actor_set() == {CAPTAIN, CREW1, CREW2}
    g = g.take(CREW2)
    assert g.actor_set() == {CAPTAIN, CREW1}
    g = g.take(CAPTAIN).take(CREW1)
    assert g.phase == ROLL and g.roller == BOX
    assert {c.member: (c.value, c.owner) for c in g.cubes} == {
        CAPTAIN: (2, "team"), CREW1: (2, "team"), CREW2: (2, "team")}


def test_the_box_doubles_some_members_only():
    g = box_window(4).double(BOX, cubes=[CREW2])
    assert pending(g) == [(CREW2, "double_answer", (CREW2,))]
    refused(g, lambda s: s.take(CAPTAIN), "not_your_turn")
    g = g.take(CREW2)
    assert [c.value for c in g.cubes] == [1, 1, 2]


def test_the_box_cannot_double_a_cube_the_member_owns():
    g = team_window(3).double(CAPTAIN).take(BOX, cube=CAPTAIN)
    g = pass_window(g)
    g = g.roll(CAPTAIN, (6, 5))
    g = g.move(CAPTAIN, [s.to_dict() for s in g.legal_plays()[0].steps])
    g = replace(g, cubes=(replace(g.cube(CAPTAIN), owner="team"), g.cube(CREW1)))
    assert g.doublable(BOX) == (CREW1,)
    refused(g, lambda s: s.double(BOX, cubes=[CAPTAIN]), "not_cube_owner")


# -- rule 1: Jacoby, beavers, no raccoons (each an option) -------------------------------------

@pytest.mark.parametrize(
    "jacoby, team, turned_points, centred_points",
    [
        (True, TEAM_ONE_OFF, 2, 1),  # single: 1 x cube either way
        (True, TEAM_NONE_OFF, 4, 1),  # gammon: counts only on the turned cube
        (True, TEAM_IN_BOX_HOME, 6, 1),  # backgammon: likewise
        (False, TEAM_NONE_OFF, 4, 2),  # without Jacoby the centred cube wins a gammon too
    ],
)
def test_jacoby_applies_per_cube(jacoby, team, turned_points, centred_points):
    rules = ChouetteRules(jacoby=jacoby)
    g = box_to_finish(3, team, rules)
    g = replace(g, cubes=(replace(g.cube(CAPTAIN), value=2, owner="team", turned=True), g.cube(CREW1)))
    g = finish(g)
    assert g.phase == OVER and g.board_winner == "box"
    assert g.cube(CAPTAIN).points == -turned_points and g.cube(CREW1).points == -centred_points
    assert scores(g) == {BOX: turned_points + centred_points, CAPTAIN: -turned_points, CREW1: -centred_points}


def test_the_team_wins_a_gammon_on_a_turned_cube():
    g = team_to_finish(3, BOX_NONE_OFF)
    g = replace(g, cubes=(g.cube(CAPTAIN), replace(g.cube(CREW1), value=4, owner="team", turned=True)))
    g = finish(g)
    assert (g.cube(CREW1).kind, g.cube(CREW1).points, g.cube(CAPTAIN).points) == ("gammon", 8, 1)
    assert g.result().box_holds is False


def test_the_box_beavers_one_members_double_only():
    g = team_window(3).double(CAPTAIN).double(CREW1)
    g = g.beaver(BOX, cube=CAPTAIN)
    c = g.cube(CAPTAIN)
    assert (c.value, c.owner, c.turned, c.stage) == (4, "box", True, None)  # no raccoons: nothing pending
    assert pending(g) == [(BOX, "double_answer", (CREW1,))]
    g = g.take(BOX)
    assert g.phase == ROLL and g.cube(CREW1).value == 2


def test_a_member_beavers_the_boxs_double():
    g = box_window(3).double(BOX).beaver(CAPTAIN).take(CREW1)
    assert (g.cube(CAPTAIN).value, g.cube(CAPTAIN).owner) == (4, "team")
    assert g.phase == ROLL


def test_beavers_off():
    g = box_window(3, ChouetteRules(beaver=False)).double(BOX)
    assert "beaver" not in g.allowed_actions(CAPTAIN)
    refused(g, lambda s: s.beaver(CAPTAIN), "no_beaver")


def test_no_raccoons_by_default():
    g = team_window(3).double(CAPTAIN).beaver(BOX, cube=CAPTAIN)
    refused(g, lambda s: s.raccoon(CAPTAIN), "no_raccoon")


def test_raccoons_when_allowed_the_doubler_answers_the_beaver():
    g = team_window(3, ChouetteRules(raccoon=True)).double(CAPTAIN).no_double(CREW1)
    g = g.beaver(BOX, cube=CAPTAIN)
    assert g.phase == ANSWERS and pending(g) == [(CAPTAIN, "raccoon_decision", (CAPTAIN,))]
    raccooned = g.raccoon(CAPTAIN)
    assert (raccooned.cube(CAPTAIN).value, raccooned.cube(CAPTAIN).owner) == (8, "box")
    assert raccooned.phase == ROLL
    declined = g.no_raccoon(CAPTAIN)
    assert declined.cube(CAPTAIN).value == 4 and declined.phase == ROLL


def test_the_cube_limit_caps_doubles_and_beavers():
    g = team_window(3, ChouetteRules(cube_limit=2)).double(CAPTAIN)
    assert not g.can_beaver(CAPTAIN)
    refused(g, lambda s: s.beaver(BOX, cube=CAPTAIN), "cube_limit")
    g = g.no_double(CREW1).take(BOX)
    g = g.roll(CAPTAIN, (6, 5))
    g = g.move(CAPTAIN, [s.to_dict() for s in g.legal_plays()[0].steps])
    assert g.doublable(BOX) == (CREW1,)  # the captain's cube is at the limit
    refused(g, lambda s: s.double(BOX, cubes=[CAPTAIN]), "cube_limit")


# -- rule 2: consultation only once your own cube is turned ------------------------------------

def test_consultation_needs_a_turned_cube():
    g = team_window(4)
    assert [g.may_consult(p) for p in (BOX, CAPTAIN, CREW1, CREW2)] == [False, True, False, False]
    g = g.no_double(CAPTAIN).double(CREW1).no_double(CREW2).take(BOX)
    assert [g.may_consult(p) for p in (CAPTAIN, CREW1, CREW2)] == [True, True, False]


def test_full_consultation_option():
    g = team_window(4, ChouetteRules(full_consultation=True))
    assert [g.may_consult(p) for p in (BOX, CAPTAIN, CREW1, CREW2)] == [False, True, True, True]


def test_a_member_who_is_out_may_not_consult():
    g = doubled_all_by_box(4).take(CAPTAIN).take(CREW2).drop(CREW1).no_buy(CAPTAIN)
    assert g.may_consult(CREW2) and not g.may_consult(CREW1)
    g = g.leave(CREW2)
    assert not g.may_consult(CREW2)


# -- the captain's drop: the next member in line takes over ---------------------------------

def test_the_captain_drops_and_the_next_member_who_took_becomes_captain():
    g = doubled_all_by_box(4).drop(CAPTAIN)
    assert g.captain == CAPTAIN  # nothing changes until every answer is in
    g = g.drop(CREW1).take(CREW2)
    # rule 4 would apply (one member left who took): the default rules send it there
    assert g.phase == LAST_MEMBER
    g = doubled_all_by_box(4).drop(CAPTAIN).take(CREW1).take(CREW2)
    assert g.phase == BUY and pending(g) == [(CREW1, "buy_decision", (CAPTAIN,))]
    g = g.no_buy(CREW1)
    assert g.captain == CREW1 and g.phase == ROLL
    assert scores(g) == {BOX: 1, CAPTAIN: -1, CREW1: 0, CREW2: 0}
    g = g.roll(BOX, (2, 1))
    g = g.move(BOX, [s.to_dict() for s in g.legal_plays()[0].steps])
    assert g.window_queue() == (CREW1, CREW2)  # the new captain decides first
    g = pass_window(g)
    assert g.roller == CREW1
    refused(g, lambda s: s.roll(CREW2, (3, 3)), "not_captain")
    refused(g, lambda s: s.roll(CAPTAIN, (3, 3)), "not_captain")


def test_the_box_drops_the_captains_double_and_the_captain_is_out():
    g = team_window(3).double(CAPTAIN).no_double(CREW1).drop(BOX)
    assert g.captain == CREW1 and g.roller == CREW1 and g.phase == ROLL
    assert not g.in_game(CAPTAIN) and g.in_game(CREW1)


# -- rule 3: the captain may buy a dropped cube ---------------------------------------------

def test_rule_3_the_captain_buys_a_dropped_cube():
    g = doubled_all_by_box(4).take(CAPTAIN).drop(CREW1).take(CREW2)
    assert g.phase == BUY and pending(g) == [(CAPTAIN, "buy_decision", (CREW1,))]
    refused(g, lambda s: s.buy(CREW2), "not_captain")
    g = g.buy(CAPTAIN)
    c = g.cube(CREW1)
    assert (c.holder, c.opponent, c.value, c.owner, c.bought, c.dropped_by, c.drop_value) == (
        CAPTAIN, BOX, 2, "team", "captain", CREW1, 1)
    # the dropper pays the captain, not the box
    assert scores(g) == {BOX: 0, CAPTAIN: 1, CREW1: -1, CREW2: 0}
    assert g.phase == ROLL and g.roller == BOX
    assert g.cubes_of(CAPTAIN) == (g.cube(CAPTAIN), g.cube(CREW1))
    # the captain now plays two cubes: the box wins a single on the board
    g = replace(g, position=box_to_finish(4).position, phase=CUBE_WINDOW)
    g = finish(g)
    assert scores(g) == {BOX: 2 + 2 + 2, CAPTAIN: 1 - 2 - 2, CREW1: -1, CREW2: -2}


def test_rule_3_the_captain_declines():
    g = doubled_all_by_box(4).take(CAPTAIN).drop(CREW1).take(CREW2).no_buy(CAPTAIN)
    assert g.cube(CREW1).end == "drop" and scores(g) == {BOX: 1, CAPTAIN: 0, CREW1: -1, CREW2: 0}


def test_rule_3_off():
    g = doubled_all_by_box(4, ChouetteRules(captain_buys=False)).take(CAPTAIN).drop(CREW1).take(CREW2)
    assert g.phase == ROLL and scores(g)[BOX] == 1


def test_rule_3_the_new_captain_may_buy_the_old_captains_cube():
    g = doubled_all_by_box(4).drop(CAPTAIN).take(CREW1).take(CREW2).buy(CREW1)
    assert g.captain == CREW1 and g.cube(CAPTAIN).holder == CREW1
    assert scores(g) == {BOX: 0, CAPTAIN: -1, CREW1: 1, CREW2: 0}


def test_rule_3_a_captain_does_not_buy_back_a_cube_he_dropped():
    g = doubled_all_by_box(4).take(CAPTAIN).drop(CREW1).take(CREW2).buy(CAPTAIN)
    # later the box owns the captain's two cubes and doubles both: he keeps his own, drops the bought one
    g = replace(g, phase=CUBE_WINDOW,
                cubes=tuple(replace(c, owner="box") if c.holder == CAPTAIN else c for c in g.cubes))
    g = g.double(BOX)
    assert pending(g) == [(CAPTAIN, "double_answer", (CAPTAIN, CREW1))]
    g = g.take(CAPTAIN, cube=CAPTAIN).drop(CAPTAIN, cube=CREW1)
    assert g.phase == ROLL  # nobody to buy it: the captain would buy from himself
    c = g.cube(CREW1)
    assert (c.holder, c.end, c.points) == (CAPTAIN, "drop", -2)
    assert scores(g) == {BOX: 2, CAPTAIN: 1 - 2, CREW1: -1, CREW2: 0}


# -- rule 4: the last member left must drop or buy all the other cubes --------------------------

def test_rule_4_the_last_member_buys_all_the_other_cubes():
    g = doubled_all_by_box(4).drop(CAPTAIN).drop(CREW1).take(CREW2)
    assert g.phase == LAST_MEMBER
    assert pending(g) == [(CREW2, "last_member", (CAPTAIN, CREW1))]
    assert set(g.allowed_actions(CREW2)) >= {"buy_all", "drop"}
    g = g.buy_all(CREW2)
    assert g.phase == ROLL and g.captain == CREW2
    # the box still gets its point from every dropped cube; each dropper pays the last member one more
    assert scores(g) == {BOX: 2, CAPTAIN: -2, CREW1: -2, CREW2: 2}
    for member in (CAPTAIN, CREW1):
        c = g.cube(member)
        assert (c.holder, c.opponent, c.value, c.owner, c.bought) == (CREW2, member, 2, "team", "last_member")
    # the board: the team wins a single -> every cube is won by the last member
    g = replace(g, position=team_to_finish(4).position, phase=CUBE_WINDOW)
    g = finish(g)
    res = g.result()
    assert dict(res.scores) == {BOX: 2 - 2, CAPTAIN: -2 - 2, CREW1: -2 - 2, CREW2: 2 + 2 + 2 + 2}
    assert sum(dict(res.scores).values()) == 0
    assert res.final_captain == CREW2 and res.box_holds is False


def test_rule_4_on_a_redoubled_cube_the_extra_payment_is_the_value_before_the_double():
    g = box_window(4)
    g = replace(g, cubes=tuple(replace(c, value=2, owner="box", turned=True) for c in g.cubes))
    g = g.double(BOX).drop(CAPTAIN).drop(CREW1).take(CREW2).buy_all(CREW2)
    assert scores(g) == {BOX: 4, CAPTAIN: -4, CREW1: -4, CREW2: 4}
    assert [g.cube(m).value for m in (CAPTAIN, CREW1, CREW2)] == [4, 4, 4]


def test_rule_4_the_last_member_drops_and_the_game_ends():
    g = doubled_all_by_box(4).drop(CAPTAIN).take(CREW1).drop(CREW2)
    g = g.drop(CREW1)
    assert g.phase == OVER and g.ending == "cubes"
    assert scores(g) == {BOX: 3, CAPTAIN: -1, CREW1: -1, CREW2: -1}
    c = g.cube(CREW1)
    assert (c.value, c.owner, c.end, c.points) == (1, None, "drop", -1)  # back to the value before the double
    res = g.result()
    assert res.box_holds and res.final_captain == CAPTAIN


def test_rule_4_a_beaver_taken_back_costs_the_value_before_the_double():
    g = box_window(3)
    g = replace(g, cubes=tuple(replace(c, value=2, owner="box", turned=True) for c in g.cubes))
    g = g.double(BOX).drop(CAPTAIN).beaver(CREW1)
    assert g.phase == LAST_MEMBER and g.cube(CREW1).value == 8  # 2 doubled to 4, beavered to 8
    g = g.drop(CREW1)
    assert scores(g) == {BOX: 4, CAPTAIN: -2, CREW1: -2}


def test_rule_4_partners_play_the_box_side_of_their_own_cubes():
    g = doubled_all_by_box(4).drop(CAPTAIN).drop(CREW1).take(CREW2).buy_all(CREW2)
    g = g.roll(BOX, (6, 5))
    g = g.move(BOX, [s.to_dict() for s in g.legal_plays()[0].steps])
    # the team's window: the last member owns all three cubes and may double each party
    assert g.window_queue() == (CREW2,) and g.doublable(CREW2) == (CAPTAIN, CREW1, CREW2)
    g = g.double(CREW2, cubes=[CAPTAIN, CREW1])
    assert pending(g) == [(CAPTAIN, "double_answer", (CAPTAIN,)), (CREW1, "double_answer", (CREW1,))]
    g = g.drop(CAPTAIN).take(CREW1)
    assert g.cube(CAPTAIN).end == "drop" and g.cube(CAPTAIN).points == 2
    assert (g.cube(CREW1).value, g.cube(CREW1).owner) == (4, "box")
    g = g.roll(CREW2, (6, 5))
    g = g.move(CREW2, [s.to_dict() for s in g.legal_plays()[0].steps])
    # the box's window: the box, then the partner who owns his cube
    assert g.window_queue() == (CREW1,)
    assert scores(g) == {BOX: 2, CAPTAIN: -4, CREW1: -2, CREW2: 4}


def test_rule_4_needs_the_last_member_to_have_taken_in_that_round():
    g = box_window(4).double(BOX, cubes=[CAPTAIN, CREW1]).drop(CAPTAIN).drop(CREW1)
    assert g.phase == BUY and pending(g) == [(CREW2, "buy_decision", (CAPTAIN, CREW1))]


def test_rule_4_off_falls_back_to_rule_3():
    g = doubled_all_by_box(4, ChouetteRules(last_member_buys=False)).drop(CAPTAIN).drop(CREW1).take(CREW2)
    assert g.phase == BUY and pending(g) == [(CREW2, "buy_decision", (CAPTAIN, CREW1))]


def test_rule_4_in_a_three_player_chouette():
    g = doubled_all_by_box(3).drop(CAPTAIN).take(CREW1)
    assert pending(g) == [(CREW1, "last_member", (CAPTAIN,))]


# -- rule 5: settlements, proposed by either side, accepted member by member ---------------------

def test_rule_5_the_box_offers_and_members_accept_one_by_one():
    g = team_window(4).double(CAPTAIN).double(CREW1).double(CREW2)
    g = g.take(BOX, cube=CAPTAIN).take(BOX, cube=CREW1).take(BOX, cube=CREW2)
    g = g.propose_settlement(BOX, -3)  # the box pays 3 to anyone who wants out
    assert {o.cube for o in g.offers} == {CAPTAIN, CREW1, CREW2}
    assert set(g.allowed_actions(CREW1)) >= {"accept_settlement", "reject_settlement"}
    g = g.accept_settlement(CREW1).reject_settlement(CREW2)
    assert g.cube(CREW1).end == "settlement" and g.cube(CREW1).points == 3
    assert scores(g) == {BOX: -3, CAPTAIN: 0, CREW1: 3, CREW2: 0}
    assert [o.cube for o in g.offers] == [CAPTAIN]
    g = g.accept_settlement(CAPTAIN)  # the captain settles too: the next member in line captains
    assert g.captain == CREW2 and g.roller == CREW2 and g.phase == ROLL
    assert sum(scores(g).values()) == 0


def test_rule_5_a_member_offers_the_box():
    g = team_window(3).propose_settlement(CREW1, 1)
    assert g.offers_to(BOX) == g.offers
    refused(g, lambda s: s.accept_settlement(CREW1), "no_offer")  # not your own offer
    refused(g, lambda s: s.accept_settlement(CAPTAIN), "no_offer")
    g = g.accept_settlement(BOX)
    assert scores(g) == {BOX: -1, CAPTAIN: 0, CREW1: 1}
    assert g.cube(CREW1).winner == "team" and not g.in_game(CREW1)


def test_rule_5_settling_the_last_cube_ends_the_game():
    g = team_window(3).propose_settlement(BOX, 1)
    g = g.accept_settlement(CAPTAIN).accept_settlement(CREW1)
    assert g.phase == OVER and g.ending == "cubes"
    assert scores(g) == {BOX: 2, CAPTAIN: -1, CREW1: -1}
    assert g.result().box_holds  # the last captain paid the box


def test_rule_5_the_captain_settles_during_his_move_and_the_next_member_plays_the_dice():
    g = pass_window(team_window(3)).roll(CAPTAIN, (6, 5))
    g = g.propose_settlement(CAPTAIN, 0).accept_settlement(BOX)
    assert g.phase == MOVE and g.roller == CREW1 and g.dice == (6, 5)
    assert g.cube(CAPTAIN).winner is None and scores(g) == {BOX: 0, CAPTAIN: 0, CREW1: 0}


def test_rule_5_offers_lapse_at_the_next_roll_and_when_the_cube_changes():
    g = team_window(3).propose_settlement(BOX, 1, cubes=[CREW1]).propose_settlement(CAPTAIN, 1)
    g = g.no_double(CAPTAIN).double(CREW1)
    assert len(g.offers) == 2  # a double offered does not change the stakes yet
    g = g.take(BOX)
    assert [o.cube for o in g.offers] == [CAPTAIN]  # the take did
    g = g.roll(CAPTAIN, (6, 5))
    assert g.offers == ()


def test_rule_5_bounds_and_options():
    g = team_window(3)
    refused(g, lambda s: s.propose_settlement(BOX, 4, cubes=[CREW1]), "bad_amount")  # a 1-cube: at most 3
    refused(g, lambda s: s.propose_settlement(BOX, 1.5), "bad_amount")
    refused(g, lambda s: s.propose_settlement(CAPTAIN, 1, cubes=[CREW1]), "cube_not_available")
    refused(g, lambda s: s.propose_settlement(BOX, 1, cubes=["nobody"]), "unknown_cube")
    refused(g, lambda s: s.withdraw_settlement(BOX), "no_offer")
    g2 = g.propose_settlement(BOX, 1).withdraw_settlement(BOX, cube=CREW1)
    assert [o.cube for o in g2.offers] == [CAPTAIN]
    off = team_window(3, ChouetteRules(settlements=False))
    refused(off, lambda s: s.propose_settlement(BOX, 1), "settlements_off")
    assert "propose_settlement" not in off.allowed_actions(BOX)
