"""Seating by one die each, the line, joining and leaving, rotation and recording."""

from __future__ import annotations

import json
import pytest

from games.engine import IllegalAction
from games.engine.chouette import ChouetteRules, ChouetteSession, Seating, rotate, seat

from tests.engine.chouette_helpers import pass_window

RULES = ChouetteRules()


def codes(fn):
    with pytest.raises(IllegalAction) as info:
        fn()
    return info.value.code


# -- seating ----------------------------------------------------------------------------------

def test_seating_highest_die_is_the_box_then_the_captain():
    s = seat([1, 2, 3, 4], {1: 2, 2: 6, 3: 5, 4: 1})
    assert s.is_done and s.must_roll == () and s.order == (2, 3, 1, 4)


def test_ties_roll_again_only_among_the_tied():
    s = seat(["a", "b", "c", "d", "e"], {"a": 4, "b": 6, "c": 4, "d": 2, "e": 2})
    assert s.groups == (("b",), ("a", "c"), ("d", "e"))
    assert s.must_roll == ("a", "c", "d", "e")
    assert codes(lambda: s.order) == "seating_not_done"
    assert codes(lambda: s.roll({"a": 1, "c": 2})) == "wrong_rollers"
    assert codes(lambda: s.roll({"a": 1, "c": 2, "d": 3, "e": 9})) == "bad_dice"
    s = s.roll([["a", 3], ["c", 3], ["d", 1], ["e", 5]])  # pairs work as well as a dict
    assert s.must_roll == ("a", "c")
    s = s.roll({"a": 2, "c": 6})
    assert s.order == ("b", "c", "a", "e", "d")
    assert len(s.rolls) == 3
    assert codes(lambda: s.roll({})) == "seating_done"
    assert Seating.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_seating_refuses_bad_players():
    assert codes(lambda: seat([1, 1, 2], {1: 1, 2: 2})) == "duplicate_player"
    assert codes(lambda: seat([1, True], {})) == "bad_player"
    assert codes(lambda: seat([], {})) == "bad_player_count"


# -- rotation -----------------------------------------------------------------------------------

def test_rotation_when_the_box_holds():
    assert rotate(("B", "C", "m1", "m2"), box_holds=True, final_captain="C") == ("B", "m1", "m2", "C")


def test_rotation_when_the_captain_wins():
    assert rotate(("B", "C", "m1", "m2"), box_holds=False, final_captain="C") == ("C", "m1", "m2", "B")


def test_rotation_when_a_promoted_captain_wins():
    # the captain dropped, m2 played on as captain and won: m2 takes the box, m1 keeps his turn
    assert rotate(("B", "C", "m1", "m2", "m3"), box_holds=False, final_captain="m2") == (
        "m2", "m1", "m3", "C", "B")


def test_rotation_in_a_three_player_chouette():
    assert rotate(("B", "C", "m"), box_holds=True, final_captain="C") == ("B", "m", "C")
    assert rotate(("B", "C", "m"), box_holds=False, final_captain="C") == ("C", "m", "B")


# -- the session -----------------------------------------------------------------------------

def a_session(n=3, rules=RULES):
    return ChouetteSession.new(rules, ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"][:n])


def box_wins(session):
    session, g = session.start_game()
    g = g.propose_settlement(g.box, 1)
    for member in g.team:
        g = g.accept_settlement(member)
    return session, g


def test_a_game_from_start_to_record():
    session = a_session(3)
    assert (session.box, session.captain, session.crew) == ("ann", "bob", ("cy",))
    session, g = session.start_game()
    assert session.in_game and g.box == "ann" and g.team == ("bob", "cy")
    assert codes(lambda: session.start_game()) == "game_in_progress"
    g = g.opening_roll(box_die=1, team_die=6)
    g = g.move("bob", [{"from": 12, "to": 18}, {"from": 17, "to": 18}])
    g = pass_window(g).roll("ann", (2, 1))
    g = g.move("ann", [s.to_dict() for s in g.legal_plays()[0].steps])
    g = g.double("bob").no_double("cy").drop("ann")  # the box drops the captain's double
    g = g.propose_settlement("cy", 1).accept_settlement("ann")
    res = g.result()
    assert not res.box_holds and res.final_captain == "cy"
    session = session.record(res)
    assert session.line == ("cy", "bob", "ann") and session.games_played == 1
    assert dict(session.scores) == {"ann": -2, "bob": 1, "cy": 1}
    assert not session.in_game


def test_record_checks_the_game():
    session = a_session(3)
    assert codes(lambda: session.record(None)) == "no_game_in_progress"
    started, g = session.start_game()
    _, other_game = a_session(4).start_game()
    done = other_game.propose_settlement("ann", 1)
    for m in other_game.team:
        done = done.accept_settlement(m)
    assert codes(lambda: started.record(done.result())) == "result_mismatch"


def test_newcomers_join_at_the_end_of_the_line_between_games():
    session = a_session(3).join("dee")
    assert session.line == ("ann", "bob", "cy", "dee")
    session, g = box_wins(session)
    session = session.join("eve")
    assert session.line == ("ann", "bob", "cy", "dee") and session.waiting == ("eve",)
    assert g.team == ("bob", "cy", "dee")  # not in the game being played
    session = session.record(g.result())
    assert session.line == ("ann", "cy", "dee", "bob", "eve")  # after the rotation
    assert session.score_of("eve") == 0


def test_join_refusals():
    full = a_session(8)
    assert codes(lambda: full.join("ivy")) == "table_full"
    assert codes(lambda: a_session(3).join("bob")) == "already_seated"
    assert codes(lambda: a_session(3).join(None)) == "bad_player"
    small = a_session(3, ChouetteRules(max_players=3))
    assert codes(lambda: small.join("dee")) == "table_full"


def test_leaving_between_games_and_during_a_game():
    session = a_session(4).leave("cy")
    assert session.line == ("ann", "bob", "dee")
    session, g = box_wins(session)
    session = session.leave("bob")
    assert session.line == ("ann", "bob", "dee") and session.leaving == ("bob",)
    session = session.record(g.result())
    assert session.line == ("ann", "dee")
    assert dict(session.scores)["bob"] == -1 and sum(p for _, p in session.scores) == 0
    assert codes(lambda: session.start_game()) == "not_enough_players"
    assert codes(lambda: session.leave("zed")) == "not_seated"
    session = session.join("bob")  # back, with the score he left with
    assert session.line == ("ann", "dee", "bob") and session.score_of("bob") == -1


def test_changing_ones_mind_during_a_game():
    session, g = box_wins(a_session(4))
    session = session.leave("cy").join("cy")
    assert session.leaving == ()
    session = session.join("eve").leave("eve")
    assert session.waiting == ()


def test_the_box_leaves_after_the_game():
    session, g = box_wins(a_session(4))
    session = session.leave("ann").record(g.result())
    assert session.line == ("cy", "dee", "bob")  # the next in line takes the box


def test_session_round_trip():
    session, g = box_wins(a_session(5).join("fay"))
    session = session.join("gus").leave("cy")
    back = ChouetteSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert back == session
    assert back.record(g.result()) == session.record(g.result())


def test_rules_options_and_round_trip():
    assert ChouetteRules().to_dict() == {
        "jacoby": True, "beaver": True, "raccoon": False, "fullConsultation": False, "cubeLimit": 64,
        "minPlayers": 3, "maxPlayers": 8, "captainBuys": True, "lastMemberBuys": True, "settlements": True,
    }
    custom = ChouetteRules(jacoby=False, raccoon=True, cube_limit=16, max_players=5)
    assert ChouetteRules.from_dict(json.loads(json.dumps(custom.to_dict()))) == custom
    assert codes(lambda: ChouetteRules(cube_limit=12)) == "bad_cube_limit"
    assert codes(lambda: ChouetteRules(max_players=9)) == "bad_player_limits"
    assert codes(lambda: ChouetteRules(min_players=5, max_players=4)) == "bad_player_limits"
    assert codes(lambda: ChouetteRules(jacoby=1)) == "bad_rules"
    assert codes(lambda: ChouetteRules(beaver=False, raccoon=True)) == "raccoon_needs_beaver"


def test_a_session_where_every_captain_beats_the_box():
    """Five games: the team doubles all at once and the box drops every cube.
    Each box loses 4 points and hands the box to its captain."""
    session = a_session(5)
    lines, scores = [], []
    for _ in range(5):
        session, g = session.start_game()
        g = g.opening_roll(box_die=3, team_die=1)
        g = g.move(g.box, [{"from": 8, "to": 5}, {"from": 6, "to": 5}])
        while g.window_decider() is not None:
            g = g.double(g.window_decider())
        for member in g.team:
            g = g.drop(g.box, cube=member)
        assert g.is_over and not g.result().box_holds
        session = session.record(g.result())
        lines.append(session.line)
        scores.append(dict(session.scores))
    assert lines[0] == ("bob", "cy", "dee", "eve", "ann")
    assert lines[1] == ("cy", "dee", "eve", "ann", "bob")
    assert lines[4] == ("ann", "bob", "cy", "dee", "eve")
    assert scores[0] == {"ann": -4, "bob": 1, "cy": 1, "dee": 1, "eve": 1}
    assert scores[2] == {"ann": -2, "bob": -2, "cy": -2, "dee": 3, "eve": 3}
    assert scores[4] == {"ann": 0, "bob": 0, "cy": 0, "dee": 0, "eve": 0}
