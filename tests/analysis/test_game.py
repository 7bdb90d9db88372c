"""The analysis walk over a game's events, with a deterministic fake evaluator.

What is checked: which decisions are analysed (forced plays are not; cube decisions only
where gnubg counts them), the equity lost and the marks of each kind of decision, the
statistics, the progress callback, per-game resumability and the JSON a board viewer needs.
"""
from __future__ import annotations

import json

import pytest

from games.analysis import AnalysisError, analyse_game, analyse_match, match_summary
from games.engine import GameState, MatchRules, MatchState, Position
from games.engine.gnubgid import parse_gnubg_id
from games.engine.moves import check_play
from games.interchange.record import GameRecorder

from tests.analysis.fakes import FakeEvaluator, play_equity


def _opening_31(match=None):
    rec = GameRecorder.start(match or MatchState.new(MatchRules(length=7)), number=1)
    rec.opening(3, 1)  # White 3, Black 1: White plays 3-1
    return rec


def test_checker_play_loss_and_mark():
    rec = _opening_31()
    rec.move([{"from": 24, "to": 21}, {"from": 21, "to": 20}])  # leaves two blots: 0.10 worse than 8/5 6/5
    rec.roll((6, 5), auto=True)
    rec.move([{"from": 1, "to": 7}, {"from": 7, "to": 12}])  # Black runs 24/13 in its own numbers
    out = analyse_game(rec.events, evaluator=FakeEvaluator(), ply=1)
    first, second = out["decisions"]
    assert first["kind"] == "move" and first["player"] == "white" and first["dice"] == [3, 1]
    assert first["cube"] is None  # no cube decision before the opening move
    play = first["play"]
    assert play["notation"] == "24/20" and not play["forced"]
    assert play["loss"] == pytest.approx(0.10) and play["mark"] == "bad"
    assert play["alternatives"][0]["notation"] == "8/5 6/5" and play["alternatives"][0]["loss"] == 0
    assert [a["rank"] for a in play["alternatives"]] == sorted(a["rank"] for a in play["alternatives"])
    assert any(a["played"] and a["notation"] == "24/20" for a in play["alternatives"])
    assert play["cost"] == pytest.approx(0.10 * 0.25)  # match play: the fake's MWC per equity
    # Black could have doubled before rolling 6-5: a no-double decision with the fake's equities
    assert second["cube"] is not None and second["cube"]["action"] == "no_double"
    stats = out["stats"]["white"]
    assert stats["checker"]["unforced"] == 1 and stats["checker"]["marks"]["bad"] == 1
    assert stats["checker"]["errorRate"] == pytest.approx(100.0)
    assert stats["overall"]["pr"] == pytest.approx(50.0)


def test_the_json_has_what_a_board_viewer_needs():
    rec = _opening_31()
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    rec.roll((6, 4), auto=True)
    rec.move([{"from": 1, "to": 7}, {"from": 12, "to": 16}])
    out = json.loads(json.dumps(analyse_game(rec.events, evaluator=FakeEvaluator(), ply=1)))
    for decision in out["decisions"]:
        position = Position.from_dict(decision["position"])
        assert position.turn == decision["player"]
        play = decision["play"]
        check_play(position, tuple(decision["dice"]), play["moves"])  # the play made replays
        for alt in play["alternatives"]:
            result = check_play(position, tuple(decision["dice"]), alt["moves"]).result
            assert alt["equity"] == pytest.approx(play_equity(result, decision["player"]), abs=1e-5)
        assert decision["version"] is None and isinstance(decision["event"], int)
        gnubg_position, gnubg_match = parse_gnubg_id(decision["gnubgId"])
        assert gnubg_position == position and sorted(gnubg_match["dice"]) == sorted(decision["dice"])
    assert out["format"] == "analysis/1" and out["costUnit"] == "mwc"
    assert out["game"]["matchLength"] == 7 and out["game"]["score"] == [0, 0]


def test_forced_plays_are_not_decisions():
    rules = MatchRules(length=0)
    rec = GameRecorder.start(MatchState.new(rules), number=1)
    # White's last two checkers on its 1-point and 2-point: every roll bears both off (forced)
    board = [0] * 25
    board[1], board[2] = 1, 1
    board[24] = -15
    position = Position(tuple(board), 0, 0, 13, 0, "white")
    rec.state = GameState.new(rec.state.rules, position)
    rec.events[0]["payload"]["position"] = position.to_dict()
    rec.opening(6, 5)
    rec.move(rec.state.legal_plays()[0].steps)
    rec.finish()
    out = analyse_game(rec.events, evaluator=FakeEvaluator(), ply=1)
    (decision,) = out["decisions"]
    assert decision["play"]["forced"] is True and "loss" not in decision["play"]
    stats = out["stats"]["white"]
    assert stats["checker"]["moves"] == 1 and stats["checker"]["unforced"] == 0
    assert stats["checker"]["errorRate"] is None and stats["overall"]["pr"] is None
    assert out["costUnit"] == "points" and out["game"]["result"]["reason"] == "bearoff"


def test_cube_decisions_and_their_errors():
    """Fixed cube equities (doubler's view): ND 0.5, DT 0.8, DP 1.0 -> double, take."""
    fake = FakeEvaluator(cube=(0.5, 0.8, 1.0))
    rec = _opening_31()
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    rec.roll((2, 1))  # Black could double and rolled: a missed double
    rec.move([{"from": 1, "to": 3}, {"from": 3, "to": 4}])
    rec.double()  # White doubles: right
    rec.drop()  # Black drops: wrong (a take was right)
    rec.finish()
    out = analyse_game(rec.events, evaluator=fake, ply=1)
    kinds = [d["kind"] for d in out["decisions"]]
    assert kinds == ["move", "move", "double", "drop"]
    missed = out["decisions"][1]["cube"]
    assert missed["best"] == "double_take" and missed["takeRight"] == "take"
    assert missed["loss"] == pytest.approx(0.3) and missed["mark"] == "very_bad"
    double, drop = out["decisions"][2:]
    assert double["loss"] == 0 and double["mark"] is None and double["player"] == "white"
    assert drop["loss"] == pytest.approx(0.2) and drop["mark"] == "very_bad" and drop["player"] == "black"
    black, white = out["stats"]["black"], out["stats"]["white"]
    assert black["cube"]["missedDoubles"] == 1 and black["cube"]["wrongPasses"] == 1
    assert black["cube"]["closeOrActual"] == 2 and black["cube"]["error"] == pytest.approx(0.5)
    assert white["cube"]["doubles"] == 1 and white["cube"]["wrongDoubles"] == 0


def test_no_cube_decision_where_gnubg_has_none():
    fake = FakeEvaluator(cube=(0.5, 0.8, 1.0))
    # the Crawford game: 6-0 in a 7-point match
    match = MatchState(MatchRules(length=7), white_score=6, is_crawford_game=True)
    rec = _opening_31(match)
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    rec.roll((2, 1), auto=True)
    rec.move([{"from": 1, "to": 3}, {"from": 3, "to": 4}])
    out = analyse_game(rec.events, evaluator=fake, ply=1)
    assert all(d["cube"] is None for d in out["decisions"])
    # a dead cube: White (1-away... here 2-away with a 2-cube it owns) cannot gain by redoubling
    match = MatchState(MatchRules(length=7), white_score=5, black_score=0)
    rec = _opening_31(match)
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    rec.double()
    rec.take()
    rec.roll((2, 1), auto=True)
    rec.move([{"from": 1, "to": 3}, {"from": 3, "to": 4}])
    rec.roll((3, 1))  # White owns a 2-cube at 2-away: a redouble would be dead
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    out = analyse_game(rec.events, evaluator=fake, ply=1)
    assert out["decisions"][-1]["kind"] == "move" and out["decisions"][-1]["cube"] is None


def test_progress_and_resumable_games():
    from tests.interchange.helpers import play_random_match

    _match, games = play_random_match(3, MatchRules(length=5), max_games=6)
    seen = []
    full = analyse_match(games, evaluator=FakeEvaluator(), ply=1, progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0) and len(seen) > len(games)
    assert all(isinstance(m, str) and m for _, m in seen)
    for k, events in enumerate(games):
        alone = analyse_game(events, evaluator=FakeEvaluator(), ply=1)
        a, b = dict(alone), dict(full["games"][k])
        a.pop("seconds"), b.pop("seconds")
        assert a == b  # game k needs nothing from games before it
    stored = [json.loads(json.dumps(g)) for g in full["games"]]
    assert match_summary(stored) == full["stats"]
    total = sum(g["stats"]["white"]["raw"]["unforced"] for g in full["games"])
    assert full["stats"]["white"]["checker"]["unforced"] == total


def test_bad_events():
    with pytest.raises(AnalysisError) as exc:
        analyse_game([{"type": "roll", "payload": {}}], evaluator=FakeEvaluator())
    assert exc.value.code == "bad_events"
    rec = _opening_31()
    events = rec.events + [{"type": "move", "payload": {"color": "white", "moves": [{"from": 24, "to": 1}],
                                                         "dice": [3, 1], "notation": "x"}}]
    with pytest.raises(AnalysisError) as exc:
        analyse_game(events, evaluator=FakeEvaluator())
    assert exc.value.code == "bad_events" and "event 2" in exc.value.message.lower()


def test_plays_are_ranked_by_equity_after_the_deepest_best():
    """The evaluator lists deeper plies first; a play looked at deeper (the play made) must not
    sit above a better one the filter left at a shallower ply."""
    from collections import namedtuple

    from games.analysis.game import ranked

    C = namedtuple("C", "board equity ply")
    cands = [C("a", 0.10, 2), C("b", 0.05, 2), C("played", -0.351, 2), C("d", -0.009, 0), C("e", 0.20, 0)]
    assert [c.board for c in ranked(cands)] == ["a", "e", "b", "d", "played"]
    assert ranked([]) == []
