"""Worked examples through the services: a 3-point match, the Crawford game, money
options, resignations, the cube limit, replay from events and rating updates."""

import pytest

from games import services
from games.dice import ScriptedDice
from games.engine import MOVE, TURN, CUBE_OFFERED, GameState
from games.models import Game, Match, Player
from games.ratings import rating_changes
from games.engine.replay import replay_events
from games.selectors.games import game_snapshot

from tests.services.conftest import event_types

pytestmark = pytest.mark.django_db


def assert_replays(match):
    """Every game of the match rebuilds from its events to its stored state."""
    for game in Game.objects.filter(match=match):
        events = [{"type": e.type, "payload": e.payload} for e in game.events.order_by("version")]
        assert replay_events(events) == game.game_state(), f"game {game.number}"
        versions = list(game.events.order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, game.version + 1))


def test_three_point_match_with_take_redouble_drop_crawford_and_post_crawford(make_table):
    t = make_table(length=3, opening=(3, 1))
    game1 = t.game
    assert t.state.phase == MOVE and t.state.actor == "white" and t.state.dice == (3, 1)
    t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])

    # Black may double, so the turn waits for roll-or-double.
    assert t.state.phase == TURN and t.state.can_double("black")
    t.do("double", "black")
    assert t.state.phase == CUBE_OFFERED and t.state.actor == "white"
    with services.use_dice(ScriptedDice([(6, 5)])):
        t.do("take", "white")
    state = t.state
    assert (state.cube_value, state.cube_owner) == (2, "white")
    assert state.phase == MOVE and state.actor == "black" and state.dice == (6, 5)  # rolled for Black
    t.play()

    # White owns the cube and redoubles; Black drops: White wins the cube's value, 2.
    assert t.state.can_double("white")
    t.do("double", "white")
    with services.use_dice(ScriptedDice([(5,), (2,)])):  # game 2's opening: White 5, Black 2
        t.do("drop", "black")
    game1.refresh_from_db()
    assert game1.status == Game.FINISHED and game1.winner_color == "white" and game1.points == 2
    match = t.match
    assert (match.white_score, match.black_score) == (2, 0)
    assert match.crawford_game and match.status == Match.PLAYING
    end = game1.events.order_by("-version").first()
    assert end.type == "game_end" and end.payload["nextGame"] == t.game.pk
    assert end.payload["diceSeed"] == game1.dice_seed

    # Game 2 is the Crawford game: no cube, so every turn is rolled automatically.
    assert t.game.number == 2
    snap = game_snapshot(t.game, "black")
    assert snap["cube"]["enabled"] is False and snap["cube"]["canDouble"] is False
    assert snap["match"]["crawfordGame"] is True
    with services.use_dice(ScriptedDice([(6, 1)])):
        t.play()  # White's 5-2; Black's 6-1 rolled at once
    assert t.state.phase == MOVE and t.state.actor == "black"
    with pytest.raises(ValueError) as err:
        t.do("double", "black")
    assert err.value.code == "wrong_phase"
    rolls = [e.payload for e in t.game.events.filter(type="roll")]
    assert rolls and all(r["auto"] for r in rolls)

    # White offers to resign a single game; Black rejects, then White resigns and Black accepts.
    t.do("resign_offer", "white", level=1)
    assert t.state.resign_offer == ("white", 1)
    t.do("resign_reject", "black")
    assert t.state.phase == MOVE and t.state.resign_offer is None
    t.do("resign_offer", "white", level=1)
    with services.use_dice(ScriptedDice([(2,), (6,)])):  # game 3: Black opens with 6-2
        t.do("resign_accept", "black")
    match = t.match
    assert (match.white_score, match.black_score) == (2, 1)
    assert not match.crawford_game and match.crawford_done  # post-Crawford

    # Game 3, post-Crawford: the cube is back.
    assert t.state.actor == "black" and t.state.dice == (6, 2)
    t.play()
    assert t.state.phase == TURN and t.state.can_double("white")
    t.do("double", "white")
    with services.use_dice(ScriptedDice([(3, 3)])):
        t.do("take", "black")
    t.play()
    assert t.state.can_double("black") and t.state.cube_owner == "black"
    t.do("double", "black")
    t.do("drop", "white")  # Black wins 2: 3-2 wins the match

    match = t.match
    assert match.status == Match.FINISHED and match.winner_id == t.black.pk
    assert (match.white_score, match.black_score) == (2, 3)
    assert match.games.count() == 3
    last = t.game.events.order_by("-version").first()
    assert last.payload["matchOver"] is True and last.payload["matchWinner"] == "black"
    assert last.payload["nextGame"] is None
    assert_replays(match)

    alice = Player.objects.get(pk=t.white.pk)
    bob = Player.objects.get(pk=t.black.pk)
    gain, loss = rating_changes(1500, 1500, 3, winner_experience=0, loser_experience=0)
    assert bob.rating == pytest.approx(1500 + gain) and alice.rating == pytest.approx(1500 + loss)
    assert gain > 0 and (bob.experience, alice.experience) == (3, 3)
    assert (bob.matches_won, bob.matches_played, alice.matches_won) == (1, 1, 0)
    assert (alice.games_played, alice.games_won, bob.games_won) == (3, 1, 2)


def test_money_session_beaver_raccoon_and_resign_with_the_cube_turned(make_table):
    t = make_table(length=0, jacoby=True, beaver=True, raccoon=True, opening=(6, 1))
    assert not t.match.rated
    t.do("move", "white", moves=[{"from": 13, "to": 7}, {"from": 8, "to": 7}])
    t.do("double", "black")
    t.do("beaver", "white")
    state = t.state
    assert (state.cube_value, state.cube_owner, state.raccoon_open) == (4, "white", True)
    assert state.phase == TURN and state.actor == "black" and state.can_raccoon("black")
    with services.use_dice(ScriptedDice([(2, 1)])):
        t.do("raccoon", "black")
    state = t.state
    assert (state.cube_value, state.cube_owner) == (8, "white") and state.phase == MOVE
    t.play()
    # White still has its back checkers in Black's home board: a plain resign concedes a
    # backgammon, and the cube was turned, so Jacoby does not reduce it: 3 x 8.
    assert t.state.phase == TURN
    with services.use_dice(ScriptedDice([(4,), (5,)])):
        t.do("resign", "white")
    match = t.match
    assert (match.white_score, match.black_score) == (0, 24)
    assert match.status == Match.PLAYING and t.game.number == 2  # a money session goes on
    assert event_types(Game.objects.get(match=match, number=1))[-3:] == ["move", "resign", "game_end"]


def test_jacoby_counts_a_gammon_single_when_the_cube_was_not_turned(make_table):
    t = make_table(length=0, jacoby=True, opening=(6, 1))
    with services.use_dice(ScriptedDice([(4,), (5,)])):
        t.do("resign", "white")
    first = Game.objects.get(match_id=t.match_id, number=1)
    assert first.result_kind == "backgammon" and first.points == 1
    assert t.match.black_score == 1


def test_automatic_doubles_turn_the_cube_on_tied_opening_rolls(make_table):
    t = make_table(length=0, auto_doubles=2, opening=(3, 3), dice=[(5,), (5,), (1,), (4,)])
    state = t.state
    assert state.cube_value == 4 and state.cube_owner is None and not state.cube_turned
    assert state.actor == "black" and state.dice == (4, 1)
    openings = [e.payload for e in t.game.events.filter(type="opening_roll").order_by("version")]
    assert [(o["white"], o["black"], o["cubeValue"]) for o in openings] == [(3, 3, 2), (5, 5, 4), (1, 4, 4)]


def test_cube_limit_stops_the_redouble(make_table):
    t = make_table(length=5, cube_limit=2, opening=(3, 1))
    t.play()
    t.do("double", "black")
    with services.use_dice(ScriptedDice([(6, 5), (4, 2)])):
        t.do("take", "white")
        t.play()  # Black plays; White owns the cube but may not redouble past 2: rolled at once
    assert t.state.phase == MOVE and t.state.actor == "white" and t.state.dice == (4, 2)
    assert game_snapshot(t.game, "white")["cube"]["canDouble"] is False


def test_a_game_played_to_the_last_checker_scores_and_starts_the_next(make_table):
    t = make_table(length=7, opening=(5, 2))
    game = t.play_to_end()
    assert game.result_kind in ("single", "gammon", "backgammon")
    state = game.game_state()
    assert state.position.off(game.winner_color) == 15
    match = t.match
    assert max(match.white_score, match.black_score) == game.points
    assert t.game.number == 2 and t.game.status == Game.PLAYING
    assert_replays(match)


def test_state_round_trips_through_the_database(make_table):
    t = make_table(length=3, opening=(4, 2))
    t.play_turns(1)
    game = Game.objects.get(pk=t.game.pk)
    assert GameState.from_dict(game.state) == game.game_state()
