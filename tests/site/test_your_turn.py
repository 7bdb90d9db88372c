"""The "your turn" list over 50 matches: the selector (oldest first, a fixed number of
queries), the header on every page, the /matches/ page and its filters, the "next match"
redirect and the bot API's ``GET /api/matches?turn=mine`` (time moved, never slept)."""

from datetime import timedelta

import pytest
from django.test import Client

from games import clock, services
from games.dice import ScriptedDice
from games.models import Game, Player
from games.selectors import turns
from tests.api.conftest import register

pytestmark = pytest.mark.django_db

START = clock.now()


def _matches(white, black, n, *, white_first):
    """``n`` correspondence matches started an hour apart; White (or Black) to move in each."""
    games = []
    for i in range(n):
        with clock.freeze(START + timedelta(hours=len(Game.objects.all()))):
            match = services.match_create(creator=white, length=3, corr_days=2, corr_bank_days=1)
            with services.use_dice(ScriptedDice([(3,), (1,)] if white_first else [(1,), (3,)])):
                services.match_join(player=black, match_id=match.pk)
        games.append(Game.objects.get(match=match).pk)
    return games


@pytest.fixture
def fifty(alice, bob):
    """30 matches waiting for Alice (White), then 20 waiting for Bob (Black moves first)."""
    return _matches(alice, bob, 30, white_first=True), _matches(alice, bob, 20, white_first=False)


def _client(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_the_list_over_fifty_matches_oldest_first_in_two_queries(alice, bob, fifty, django_assert_max_num_queries):
    alices, bobs = fifty
    now = START + timedelta(days=1)
    with django_assert_max_num_queries(1):
        mine, theirs = turns.split(alice)
    assert [t.game_id for t in mine] == alices and [t.game_id for t in theirs] == bobs
    first = mine[0]
    assert first.deadline == START + timedelta(days=3) and first.seconds_left(now) == 2 * 86_400
    assert first.time_left_text(now) == "2d 0h"
    assert [t.game_id for t in turns.your_turn(bob)] == bobs
    assert turns.next_waiting(alice, after_game=alices[0]) == alices[1]


def test_the_header_counts_the_waiting_matches_on_every_page(alice, bob, fifty):
    alices, _ = fifty
    page = _client(alice).get("/leaderboard/").content.decode()
    assert 'id="your-turn-count">30<' in page
    links = [f'href="/games/{g}/"' for g in alices]
    assert all(link in page for link in links[:10]) and links[10] not in page
    assert page.index(links[0]) < page.index(links[1]) < page.index(links[9])
    assert 'id="your-turn-count">20<' in _client(bob).get("/settings/").content.decode()


def test_the_matches_page_filters(alice, bob, fifty):
    alices, bobs = fifty
    client = _client(alice)
    mine = client.get("/matches/?turn=mine").content.decode()
    assert all(f'href="/games/{g}/"' in mine for g in alices) and f'href="/games/{bobs[0]}/">' not in mine
    theirs = client.get("/matches/?turn=theirs").content.decode()
    assert all(f'href="/games/{g}/"' in theirs for g in bobs)
    services.match_leave(match_id=Game.objects.get(pk=alices[0]).match_id, player=alice)
    finished = client.get("/matches/?turn=finished").content.decode()
    assert "bob won" in finished and "(left the match)" in finished  # end_reason "forfeit" in words
    bad = client.get("/matches/?turn=everything")
    assert bad.status_code == 400 and "Unknown filter" in bad.content.decode()


def test_next_match_opens_the_oldest_waiting_game_but_the_one_left(alice, bob, fifty):
    alices, _ = fifty
    client = _client(alice)
    assert client.get(f"/matches/next/?from={alices[0]}")["Location"] == f"/games/{alices[1]}/"
    assert client.get("/matches/next/")["Location"] == f"/games/{alices[0]}/"
    page = client.get(f"/games/{alices[0]}/").content.decode()
    assert 'id="next-match"' in page
    # A player with nothing waiting goes to the list.
    carol = services.player_register(username="carol", password="correct horse 3")
    assert _client(carol).get("/matches/next/")["Location"] == "/matches/?turn=mine"


def test_the_game_page_knows_the_matches_waiting_elsewhere(alice, bob, fifty):
    """The boot data's count without the game shown (its part follows the game live), for the
    header and "Next match"; a player with nothing waiting reads "Your matches", no "Your turn 0"."""
    alices, bobs = fifty
    assert turns.waiting_elsewhere(alice, alices[0]) == 29 and turns.waiting_elsewhere(alice, bobs[0]) == 30
    page = _client(alice).get(f"/games/{alices[0]}/").content.decode()
    assert '"turnsElsewhere": 29' in page
    carol = services.player_register(username="carol", password="correct horse 3")
    empty = _client(carol).get("/leaderboard/").content.decode()
    assert 'id="your-turn-count" hidden>0<' in empty and 'id="your-turn-label" hidden>' in empty
    assert 'id="your-matches-label">' in empty


def test_the_bot_api_lists_the_matches_waiting_for_the_agent():
    one, two = register("turn-one"), register("turn-two")
    white, black = Player.objects.get(pk=one.id), Player.objects.get(pk=two.id)
    first = _matches(white, black, 2, white_first=True)
    second = _matches(white, black, 1, white_first=False)
    body = one.get("/api/matches", turn="mine").json()
    assert [m["gameId"] for m in body["matches"]] == first
    line = body["matches"][0]
    assert line["isYourTurn"] and line["yourColor"] == "white" and line["opponent"]["id"] == two.id
    assert line["timeControl"]["daysPerMove"] == 2 and line["deadline"] and line["secondsLeft"] >= 0
    assert [m["gameId"] for m in two.get("/api/matches", turn="mine").json()["matches"]] == second
    assert [m["gameId"] for m in one.get("/api/matches", turn="theirs").json()["matches"]] == second
    bad = one.get("/api/matches", turn="all")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_turn"
