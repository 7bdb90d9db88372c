"""Reads: history, leaderboard, lobby lists and the per-viewer snapshot."""

import pytest

from games.selectors import games as selectors
from games import services
from games.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def test_history_and_leaderboard_after_rated_matches(make_table, players):
    alice, bob = players
    t = make_table(length=1, opening=(3, 1))
    t.do("resign", "black")  # alice (White) wins
    carol = services.player_register(username="carol", password="correct horse 3")
    unrated = services.match_create(creator=carol, length=0)
    assert [m.pk for m in selectors.match_history(alice)] == [t.match_id]
    assert list(selectors.match_history(carol)) == []
    board = list(selectors.leaderboard())
    assert [p.display_name for p in board] == ["alice", "bob"]  # carol has no rated match yet
    assert board[0].rating > 1500 > board[1].rating
    assert unrated.pk in [m.pk for m in selectors.open_matches()]


def test_lobby_lists_hide_private_and_unwatchable_matches(players):
    alice, bob = players
    public = services.match_create(creator=alice, length=3)
    private = services.match_create(creator=alice, length=3, private=True)
    assert [m.pk for m in selectors.open_matches()] == [public.pk]
    closed = services.match_create(creator=bob, length=3, spectators_allowed=False)
    with services.use_dice(ScriptedDice([(3,), (1,), (3,), (1,)])):
        services.match_join(player=bob, match_id=public.pk)
        services.match_join(player=alice, match_id=closed.pk)
    assert [m.pk for m in selectors.live_matches()] == [public.pk]
    assert private.pk not in [m.pk for m in selectors.open_matches()]


def test_the_snapshot_shows_legal_moves_ids_and_hides_the_seed(make_table):
    t = make_table(length=3, opening=(3, 1))
    snap = selectors.game_snapshot(t.game, "white")
    assert snap["you"] == "white" and snap["actor"] == "white" and len(snap["legalMoves"]) == 16
    assert snap["positionId"] == "4HPwATDgc/ABMA" and snap["gnubgId"].startswith("4HPwATDgc/ABMA:")
    assert snap["diceSeed"] is None and len(snap["diceCommitment"]) == 64
    assert snap["pips"] == {"white": 167, "black": 167}
    watcher = selectors.game_snapshot(t.game, None)
    assert watcher["you"] is None and watcher["cube"]["canDouble"] is False
    t.do("resign", "black")
    first = t.match.games.get(number=1)
    assert selectors.game_snapshot(first, None)["diceSeed"] == first.dice_seed
