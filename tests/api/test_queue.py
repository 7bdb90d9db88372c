"""Matchmaking: FIFO pairing per match length, no double queueing, expiry, leaving, house bots."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import HouseBot, Match, QueueEntry


def test_queue_twice_does_not_queue_twice(agents):
    a, b = agents(2)
    assert a.queue(matchLength=2).json() == {"status": "queued", "matchLength": 2}
    assert a.queue(matchLength=2).json() == {"status": "queued", "matchLength": 2}
    assert QueueEntry.objects.filter(player_id=a.id).count() == 1
    assert a.get("/api/matchmaking/queue").json() == {"status": "queued", "matchLength": 2}
    # Still one agent waiting: the next one is paired with it, not with a second copy.
    matched = b.queue(matchLength=2).json()
    assert matched["status"] == "matched"
    match = Match.objects.get(pk=matched["matchId"])
    assert {match.white_id, match.black_id} == {a.id, b.id} and match.status == Match.PLAYING
    assert match.length == 2
    # Joining again while that match is under way answers the match (no new queue entry).
    assert a.queue(matchLength=2).json() == {"status": "matched", "matchId": match.pk}
    assert Match.objects.count() == 1


def test_pairs_equal_lengths_first_come_first_served(agents):
    a, b, c, d, e = agents(5)
    assert a.queue(matchLength=3).json()["status"] == "queued"
    assert b.queue(matchLength=1).json()["status"] == "queued"
    assert c.queue(matchLength=1).json()["status"] == "matched"
    # c (1 point) was paired with b, the first 1-point agent, not with a (3 points).
    ab = Match.objects.get(pk=c.get("/api/matchmaking/queue").json()["matchId"])
    assert {ab.white_id, ab.black_id} == {b.id, c.id} and ab.length == 1
    assert ab.white_id == b.id  # the longer waiter creates the match (White's seat)
    assert a.get("/api/matchmaking/queue").json() == {"status": "queued", "matchLength": 3}
    # d and e both want 3 points: d comes first and is paired with a; e waits.
    assert d.queue(matchLength=3).json()["status"] == "matched"
    assert e.queue(matchLength=3).json() == {"status": "queued", "matchLength": 3}
    ad = Match.objects.get(pk=a.get("/api/matchmaking/queue").json()["matchId"])
    assert (ad.white_id, ad.black_id, ad.length) == (a.id, d.id, 3)


def test_unknown_game_and_bad_options_are_refused_and_queue_nothing(agents):
    (a,) = agents(1)
    for body, code in [({"gameId": "chess"}, "unknown_game"), ({"gameId": 3}, "unknown_game"),
                       ({"gameId": "backgammon", "matchLength": 0}, "bad_length"),
                       ({"gameId": "backgammon", "matchLength": "3"}, "bad_length"),
                       ({"gameId": "backgammon", "opponent": "grandmaster"}, "unknown_level"),
                       ({"gameId": "backgammon", "colour": "white"}, "unknown_field"),
                       ({}, "missing_field")]:
        response = a.post("/api/matchmaking/queue", body)
        assert response.status_code == 400 and response.json()["error"]["code"] == code, (body, response.content)
    assert not QueueEntry.objects.exists() and not Match.objects.exists()
    assert a.get("/api/matchmaking/queue").json() == {"status": "none"}


def test_leaving_the_queue(agents):
    a, b = agents(2)
    a.queue()
    assert a.delete("/api/matchmaking/queue").json() == {"status": "left"}
    assert a.get("/api/matchmaking/queue").json() == {"status": "none"}
    assert a.delete("/api/matchmaking/queue").json() == {"status": "none"}
    assert b.queue().json()["status"] == "queued"  # a left: nobody to pair with
    assert not Match.objects.exists()


def test_entries_expire_after_the_timeout(agents, settings):
    settings.GAMES_QUEUE_TIMEOUT = 300
    a, b, c = agents(3)
    a.queue()
    QueueEntry.objects.filter(player_id=a.id).update(seen_at=timezone.now() - timedelta(seconds=301))
    # a's entry is stale: b is not paired with it...
    assert b.queue().json()["status"] == "queued"
    # ...and a learns it expired (until it joins again).
    assert a.get("/api/matchmaking/queue").json() == {"status": "expired"}
    assert a.get("/api/matchmaking/queue").json() == {"status": "expired"}
    matched = a.queue().json()
    assert matched["status"] == "matched"  # b is still waiting: a joins and is paired with b
    assert b.get("/api/matchmaking/queue").json() == matched
    # A poll keeps an entry alive.
    c.queue()
    old = timezone.now() - timedelta(seconds=200)
    QueueEntry.objects.filter(player_id=c.id).update(seen_at=old)
    assert c.get("/api/matchmaking/queue").json()["status"] == "queued"
    assert QueueEntry.objects.get(player_id=c.id).seen_at > old


def test_playing_a_house_bot_at_once(agents):
    (a,) = agents(1)
    levels = a.get("/api/bots").json()["levels"]
    names = [level["level"] for level in levels]
    assert "random" in names and "beginner" in names
    answer = a.queue(opponent="random", matchLength=1).json()
    assert answer["status"] == "matched"
    match = Match.objects.get(pk=answer["matchId"])
    bot = HouseBot.objects.get(level="random").player
    assert {match.white_id, match.black_id} == {a.id, bot.pk} and bot.is_bot
    assert "house bot" in bot.display_name
    assert services.house_bot(level="random") == bot  # created once
    view = a.view(match.pk).json()
    assert view["opponent"] == {"id": bot.pk, "name": bot.display_name, "rating": 1500.0, "isBot": True,
                                "vacationUntil": None}


def test_humans_can_use_the_same_queue(db):
    """Quick play for people: the same services, no API key involved."""
    alice = services.player_register(username="alice", password="correct horse 1")
    bob = services.player_register(username="bob", password="correct horse 2")
    assert services.queue_join(player=alice)["status"] == "queued"
    matched = services.queue_join(player=bob)
    assert matched["status"] == "matched"
    assert services.queue_status(player=alice) == matched
    human_vs_bot = services.match_vs_bot(player=alice, level="beginner", length=3)
    assert human_vs_bot.status == Match.PLAYING and human_vs_bot.black.housebot.level == "beginner"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_joins_never_take_the_same_waiting_player():
    """PostgreSQL only (SQLite ignores row locks): one waiting, two arriving at once."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL=TEST_DATABASE_URL")
    for round_ in range(5):
        waiting, x, y = (services.player_register(username=f"p{round_}-{i}", password=None) for i in range(3))
        services.queue_join(player=waiting)
        barrier = threading.Barrier(2)
        answers = []

        def join(player):
            try:
                barrier.wait(timeout=10)
                answers.append(services.queue_join(player=player))
            finally:
                connection.close()

        threads = [threading.Thread(target=join, args=(p,)) for p in (x, y)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        statuses = sorted(a["status"] for a in answers)
        assert statuses == ["matched", "queued"], answers
        assert Match.objects.filter(white=waiting).count() == 1
        services.queue_leave(player=x)
        services.queue_leave(player=y)
