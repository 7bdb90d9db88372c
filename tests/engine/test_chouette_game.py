"""The chouette game's flow, its generic surface (pending / allowed_actions / apply),
timeouts, leaving mid-game, results and every error code of docs/CHOUETTE.md."""

from __future__ import annotations

import doctest
import json
from dataclasses import replace

import pytest

import games.engine.chouette as chouette_pkg
from games.engine import IllegalAction, IllegalPlay
from games.engine.chouette import ACTIONS, SAFE_ANSWER, ChouetteGame, ChouetteResult, ChouetteRules
from games.engine.chouette import game as game_mod
from games.engine.chouette import records, rules as rules_mod, session as session_mod
from games.engine.chouette.rules import ANSWERS, BUY, CUBE_WINDOW, LAST_MEMBER, MOVE, OPENING, OVER, ROLL

from tests.engine.chouette_helpers import (
    BOX,
    CAPTAIN,
    CREW1,
    CREW2,
    CREW3,
    TEAM_NONE_OFF,
    box_to_finish,
    box_window,
    finish,
    new_game,
    pass_window,
    refused,
    team_to_finish,
    team_window,
)


@pytest.mark.parametrize("module", [chouette_pkg, game_mod, records, rules_mod, session_mod])
def test_module_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


# -- the opening roll ---------------------------------------------------------------------

def test_opening_roll_tie_rolls_again_and_the_higher_die_moves_first():
    g = new_game(3)
    assert g.phase == OPENING and g.actor_set() == frozenset()
    assert g.allowed_actions(None) == ("opening_roll",)
    assert g.opening_roll(box_die=4, team_die=4) == g
    team_first = g.apply("opening_roll", None, teamDie=6, boxDie=2)
    assert (team_first.phase, team_first.on_roll, team_first.roller, team_first.dice) == (MOVE, "team", CAPTAIN, (6, 2))
    box_first = g.opening_roll(box_die=5, team_die=3)
    assert (box_first.on_roll, box_first.roller, box_first.dice, box_first.first_mover) == ("box", BOX, (5, 3), "box")
    refused(g, lambda s: s.apply("opening_roll", CAPTAIN, box_die=1, team_die=2), "not_your_turn")
    refused(g, lambda s: s.opening_roll(box_die=0, team_die=2), "bad_dice")
    refused(box_first, lambda s: s.opening_roll(box_die=2, team_die=1), "wrong_phase")


def test_only_the_roller_moves():
    g = new_game(3).opening_roll(box_die=1, team_die=3)
    refused(g, lambda s: s.move(CREW1, []), "not_captain")
    refused(g, lambda s: s.move(BOX, []), "not_your_turn")
    with pytest.raises(IllegalPlay):
        g.move(CAPTAIN, [{"from": 1, "to": 5}])


def test_a_member_who_went_out_cannot_act():
    g = team_window(3).double(CAPTAIN).no_double(CREW1).drop(BOX)
    refused(g, lambda s: s.propose_settlement(CAPTAIN, 1), "cube_not_available")
    assert g.allowed_actions(CAPTAIN) == ("leave",)


# -- the generic surface -------------------------------------------------------------------

def test_apply_dispatches_every_action_and_checks_fields():
    g = team_window(3)
    assert g.apply("double", CAPTAIN, cubes=[CAPTAIN]) == g.double(CAPTAIN, cubes=[CAPTAIN])
    refused(g, lambda s: s.apply("fly", CAPTAIN), "unknown_action")
    refused(g, lambda s: s.apply("no_double", CAPTAIN, cube=CAPTAIN), "bad_field")
    refused(g, lambda s: s.apply("propose_settlement", BOX), "missing_field")
    refused(pass_window(g), lambda s: s.apply("roll", CAPTAIN), "missing_field")
    for action in ACTIONS:
        assert callable(getattr(ChouetteGame, action)), action


def test_allowed_actions_by_phase():
    g = team_window(3)
    assert g.allowed_actions(CAPTAIN) == ("double", "no_double", "propose_settlement", "leave")
    assert g.allowed_actions(CREW1) == ("propose_settlement", "leave")
    assert g.allowed_actions(BOX) == ("propose_settlement", "leave")
    assert g.allowed_actions("stranger") == ()
    g = g.double(CAPTAIN).no_double(CREW1)
    assert g.allowed_actions(BOX)[:3] == ("take", "drop", "beaver")
    g = g.take(BOX)
    assert g.allowed_actions(CAPTAIN)[:1] == ("roll",)
    g = g.roll(CAPTAIN, (3, 1))
    assert g.allowed_actions(CAPTAIN)[:1] == ("move",)
    over = team_window(3).propose_settlement(BOX, 0).accept_settlement(CAPTAIN).accept_settlement(CREW1)
    assert over.is_over and over.allowed_actions(BOX) == () and over.pending() == ()


@pytest.mark.parametrize("phase_builder, reason", [
    (lambda: new_game(3), "opening_roll"),
    (lambda: team_window(3), "double_decision"),
    (lambda: team_window(3).double(CAPTAIN), "double_decision"),
    (lambda: team_window(3).double(CAPTAIN).no_double(CREW1), "double_answer"),
    (lambda: pass_window(team_window(3)), "roll"),
    (lambda: pass_window(team_window(3)).roll(CAPTAIN, (1, 2)), "move"),
    (lambda: box_window(4).double(BOX).take(CAPTAIN).drop(CREW1).take(CREW2), "buy_decision"),
    (lambda: box_window(3).double(BOX).drop(CAPTAIN).take(CREW1), "last_member"),
    (lambda: team_window(3, ChouetteRules(raccoon=True)).double(CAPTAIN).no_double(CREW1).beaver(BOX),
     "raccoon_decision"),
])
def test_every_pending_reason_and_its_actions(phase_builder, reason):
    g = phase_builder()
    assert reason in {p.reason for p in g.pending()}
    for p in g.pending():
        if p.player is None:
            continue
        allowed = g.allowed_actions(p.player)
        assert any(a in allowed for a in ("double", "take", "raccoon", "buy", "buy_all", "roll", "move"))
        d = json.loads(json.dumps(g.to_dict()))
        assert d["pending"] == [q.to_dict() for q in g.pending()]


# -- timeouts: the safe answers --------------------------------------------------------------

def test_safe_answers_table():
    assert SAFE_ANSWER == {
        "double_decision": "no_double", "double_answer": "drop", "raccoon_decision": "no_raccoon",
        "buy_decision": "no_buy", "last_member": "drop",
    }


def test_timeout_in_the_window_passes_the_cube():
    g = team_window(3)
    assert g.timeout_answer(CAPTAIN) == (("no_double", {}),)
    g = g.timeout(CAPTAIN)
    assert g.window_decider() == CREW1 and g.cube(CAPTAIN).value == 1


def test_timeout_on_doubles_drops_each_cube():
    g = team_window(3).double(CAPTAIN).double(CREW1)
    assert g.timeout_answer(BOX) == (("drop", {"cube": CAPTAIN}), ("drop", {"cube": CREW1}))
    g = g.timeout(BOX)
    assert g.is_over and dict(g.running_scores()) == {BOX: -2, CAPTAIN: 1, CREW1: 1}
    assert not g.result().box_holds


def test_timeout_on_rule_3_and_rule_4_and_raccoons():
    buy = box_window(4).double(BOX).take(CAPTAIN).drop(CREW1).take(CREW2)
    assert buy.timeout_answer(CAPTAIN) == (("no_buy", {"cube": CREW1}),)
    assert buy.timeout(CAPTAIN).cube(CREW1).end == "drop"
    last = box_window(3).double(BOX).drop(CAPTAIN).take(CREW1)
    assert last.timeout_answer(CREW1) == (("drop", {}),)
    assert last.timeout(CREW1).is_over
    racc = team_window(3, ChouetteRules(raccoon=True)).double(CAPTAIN).no_double(CREW1).beaver(BOX)
    assert racc.timeout(CAPTAIN).cube(CAPTAIN).value == 4


def test_no_safe_answer_for_a_roll_or_a_move():
    g = pass_window(team_window(3))
    assert g.timeout_answer(CAPTAIN) == ()
    refused(g, lambda s: s.timeout(CAPTAIN), "nothing_to_time_out")


# -- leaving during a game -------------------------------------------------------------------

def test_a_member_who_leaves_keeps_his_cube_in_play_and_drops_when_doubled():
    g = box_window(4).leave(CREW1)
    assert g.in_game(CREW1) and not g.may_consult(CREW1)
    refused(g, lambda s: s.propose_settlement(CREW1, 0), "left_game")
    refused(g, lambda s: s.leave(CREW1), "left_game")
    g = g.double(BOX)  # his answer is given at once: a drop
    assert g.cube(CREW1).stage == "dropped" and g.actor_set() == {CAPTAIN, CREW2}
    g = g.take(CAPTAIN).take(CREW2).no_buy(CAPTAIN)
    assert dict(g.running_scores())[CREW1] == -1


def test_a_departed_member_never_doubles_and_his_cube_is_decided_by_the_board():
    g = team_to_finish(3, rules=None).leave(CREW1)
    assert g.window_queue() == (CAPTAIN,)
    g = finish(g)
    assert g.cube(CREW1).points == 1 and g.cube(CREW1).end == "bearoff"


def test_the_captain_leaves_and_the_next_member_plays_the_dice():
    g = pass_window(team_window(4)).roll(CAPTAIN, (6, 5)).leave(CAPTAIN)
    assert g.captain == CREW1 and g.roller == CREW1 and g.phase == MOVE and g.dice == (6, 5)


def test_the_box_leaves_and_concedes_the_board():
    g = team_window(3).double(CAPTAIN).no_double(CREW1).take(BOX).leave(BOX)
    assert g.phase == OVER and g.ending == "forfeit" and g.board_winner == "team"
    # the initial position is worth a backgammon; Jacoby: the centred cube counts single
    assert g.cube(CAPTAIN).kind == "backgammon" and g.cube(CAPTAIN).points == 6
    assert g.cube(CREW1).points == 1
    assert not g.result().box_holds


def test_the_last_member_present_leaves_and_the_team_concedes():
    g = team_window(3).leave(CREW1)
    assert not g.is_over
    g = g.leave(CAPTAIN)
    assert g.phase == OVER and g.ending == "forfeit" and g.board_winner == "box"
    assert dict(g.running_scores()) == {BOX: 2, CAPTAIN: -1, CREW1: -1}
    assert g.result().box_holds


# -- results -----------------------------------------------------------------------------------

def test_result_per_member_for_the_session_log():
    g = box_window(4).double(BOX).take(CAPTAIN).drop(CREW1).take(CREW2).buy(CAPTAIN)
    g = replace(g, position=box_to_finish(4, TEAM_NONE_OFF).position, phase=CUBE_WINDOW)
    g = finish(g)
    res = g.result()
    members = {m.player: m for m in res.members}
    assert (members[CAPTAIN].how, members[CAPTAIN].kind, members[CAPTAIN].cube_value) == ("lost", "gammon", 2)
    assert members[CAPTAIN].points == 1 - 4 - 4  # bought CREW1's cube for 1, lost two doubled gammons
    assert (members[CREW1].how, members[CREW1].cube_value, members[CREW1].cube_owner) == ("sold_to_captain", 1, None)
    assert members[CREW1].points == -1
    assert members[CREW2].points == -4
    assert res.points_of(BOX) == 12 and sum(p for _, p in res.scores) == 0
    assert res.lines()[0] == "box ann: +12 (holds the box)"
    assert res.lines()[1] == "bob (captain): cube 2 owned by the member, lost gammon: -7"
    assert ChouetteResult.from_dict(json.loads(json.dumps(res.to_dict()))) == res


def test_result_before_the_end_is_refused():
    refused(new_game(3), lambda s: s.result(), "game_not_over")


def test_rotation_after_a_captains_drop_follows_the_final_captain():
    g = box_window(4).double(BOX, cubes=[CAPTAIN]).drop(CAPTAIN).no_buy(CREW1)
    assert g.captain == CREW1
    won = finish(replace(g, position=team_to_finish(4).position, phase=CUBE_WINDOW))
    res = won.result()
    assert res.first_captain == CAPTAIN and res.final_captain == CREW1 and not res.box_holds
    lost = finish(replace(g, position=box_to_finish(4).position, phase=CUBE_WINDOW))
    assert lost.result().box_holds


def test_box_holds_when_the_game_ends_off_the_board():
    # the box drops the captain's double and the crew's: the captain beat the box
    g = team_window(3).double(CAPTAIN).double(CREW1).drop(BOX, cube=CREW1).drop(BOX, cube=CAPTAIN)
    assert g.ending == "cubes" and g.captain == CAPTAIN and not g.result().box_holds
    # every member drops the box's double: the box holds
    g = box_window(3).double(BOX).drop(CAPTAIN).take(CREW1).drop(CREW1)
    assert g.result().box_holds


# -- error codes ---------------------------------------------------------------------------------

ERRORS = [
    ("game_over", lambda: team_window(3).leave(BOX), lambda g: g.leave(CAPTAIN)),
    ("not_in_game", lambda: team_window(3), lambda g: g.no_double("stranger")),
    ("left_game", lambda: team_window(3).leave(CREW1), lambda g: g.leave(CREW1)),
    ("wrong_phase", lambda: team_window(3), lambda g: g.roll(CAPTAIN, (1, 2))),
    ("not_your_turn", lambda: team_window(3), lambda g: g.no_double(CREW1)),
    ("not_captain", lambda: pass_window(team_window(3)), lambda g: g.roll(CREW1, (1, 2))),
    ("cube_not_available", lambda: team_window(3), lambda g: g.double(CAPTAIN, cubes=[CREW1])),
    ("not_cube_owner", lambda: replace(box_window(3), cubes=tuple(
        replace(c, value=2, owner="team") if c.member == CAPTAIN else c for c in box_window(3).cubes)),
     lambda g: g.double(BOX, cubes=[CAPTAIN])),
    ("cube_limit", lambda: team_window(3, ChouetteRules(cube_limit=2)).double(CAPTAIN),
     lambda g: g.beaver(BOX)),
    ("unknown_cube", lambda: team_window(3), lambda g: g.double(CAPTAIN, cubes=["nobody"])),
    ("bad_cubes", lambda: team_window(3), lambda g: g.double(CAPTAIN, cubes=[])),
    ("cube_required", lambda: team_window(3).double(CAPTAIN).double(CREW1), lambda g: g.drop(BOX)),
    ("already_answered", lambda: team_window(3).double(CAPTAIN).double(CREW1).take(BOX, cube=CREW1),
     lambda g: g.drop(BOX, cube=CREW1)),
    ("no_beaver", lambda: team_window(3, ChouetteRules(beaver=False)).double(CAPTAIN),
     lambda g: g.beaver(BOX)),
    ("no_raccoon", lambda: team_window(3).double(CAPTAIN).beaver(BOX), lambda g: g.raccoon(CAPTAIN)),
    ("bad_dice", lambda: pass_window(team_window(3)), lambda g: g.roll(CAPTAIN, (7, 1))),
    ("bad_amount", lambda: team_window(3), lambda g: g.propose_settlement(BOX, 99)),
    ("settlements_off", lambda: team_window(3, ChouetteRules(settlements=False)),
     lambda g: g.propose_settlement(BOX, 1)),
    ("no_offer", lambda: team_window(3), lambda g: g.accept_settlement(BOX)),
    ("nothing_to_time_out", lambda: team_window(3), lambda g: g.timeout(BOX)),
    ("unknown_action", lambda: team_window(3), lambda g: g.apply("resign", BOX)),
    ("bad_field", lambda: team_window(3), lambda g: g.apply("take", BOX, cubes=[CAPTAIN])),
    ("missing_field", lambda: team_window(3), lambda g: g.apply("move", CAPTAIN)),
    ("game_not_over", lambda: team_window(3), lambda g: g.box_holds()),
    ("duplicate_player", lambda: None, lambda _: ChouetteGame.new(ChouetteRules(), 1, [2, 1])),
    ("bad_player_count", lambda: None, lambda _: ChouetteGame.new(ChouetteRules(), 1, [2])),
    ("bad_player", lambda: None, lambda _: ChouetteGame.new(ChouetteRules(), 1, [2, None])),
]


@pytest.mark.parametrize("code, build, action", ERRORS, ids=[e[0] for e in ERRORS])
def test_error_codes(code, build, action):
    state = build()
    if state is None:
        with pytest.raises(IllegalAction) as info:
            action(state)
        assert info.value.code == code
    else:
        refused(state, action, code)


def test_buy_errors():
    g = box_window(5).double(BOX).take(CAPTAIN).drop(CREW1).drop(CREW2).take(CREW3)
    assert g.phase == BUY
    refused(g, lambda s: s.buy(CAPTAIN), "cube_required")
    refused(g, lambda s: s.buy(CAPTAIN, cube=CAPTAIN), "cube_not_available")
    refused(g, lambda s: s.buy(CREW1, cube=CREW2), "not_captain")
    refused(g, lambda s: s.buy_all(CAPTAIN), "wrong_phase")
    last = box_window(3).double(BOX).drop(CAPTAIN).take(CREW1)
    assert last.phase == LAST_MEMBER
    refused(last, lambda s: s.buy_all(BOX), "not_your_turn")
    refused(last, lambda s: s.drop(BOX), "not_your_turn")
    refused(last, lambda s: s.buy(CREW1), "wrong_phase")


def test_answers_phase_waits_for_everyone():
    g = box_window(4).double(BOX)
    assert g.phase == ANSWERS
    g = g.take(CAPTAIN)
    assert g.phase == ANSWERS and g.actor_set() == {CREW1, CREW2}
    refused(g, lambda s: s.roll(BOX, (1, 2)), "wrong_phase")
    g = g.take(CREW1).take(CREW2)
    assert g.phase == ROLL


# -- persistence ---------------------------------------------------------------------------------

def test_round_trip_through_json_in_every_phase():
    states = [
        new_game(5), team_window(5), team_window(5).double(CAPTAIN),
        box_window(4).double(BOX).take(CAPTAIN).drop(CREW1).take(CREW2),
        box_window(3).double(BOX).drop(CAPTAIN).take(CREW1),
        team_window(3).propose_settlement(BOX, 1).leave(CREW1),
        finish(box_to_finish(4)),
    ]
    for g in states:
        data = json.loads(json.dumps(g.to_dict()))
        back = ChouetteGame.from_dict(data)
        assert back == g and back.to_dict() == g.to_dict()


def test_integer_player_ids_round_trip():
    g = ChouetteGame.new(ChouetteRules(), 10, [20, 30, 40]).opening_roll(box_die=2, team_die=5)
    g = g.move(20, [{"from": 12, "to": 17}, {"from": 12, "to": 14}])
    assert ChouetteGame.from_dict(json.loads(json.dumps(g.to_dict()))) == g


# -- the rulings document lists every code and action -------------------------------------------

def test_the_doc_lists_every_error_code_and_action():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "CHOUETTE.md").read_text(encoding="utf-8")
    # the chouette's own rules, and the surface every table's actions pass first (bad_field, missing_field)
    files = [*(root / "games/engine/chouette").glob("*.py"), root / "games/engine/surface.py"]
    source = " ".join(p.read_text(encoding="utf-8") for p in files)
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    errors_section = doc.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    first_cells = [line.split("|")[1] for line in errors_section.splitlines() if line.startswith("| `")]
    documented = {code for cell in first_cells for code in re.findall(r"`([a-z_]+)`", cell)}
    assert raised and raised == documented, (sorted(raised - documented), sorted(documented - raised))
    api_section = doc.split("## API for the server", 1)[1]
    for action in ACTIONS:
        assert f"`{action}`" in api_section, action
    for reason in ("opening_roll", "double_decision", "double_answer", "raccoon_decision",
                   "buy_decision", "last_member", "roll", "move"):
        assert f"`{reason}`" in api_section, reason
