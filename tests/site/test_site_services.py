"""Issue 14's server side: suspension ends a player's matches, a limit of matches against the
computer, deserted games leave the lobby, rating changes at match end."""

import pytest

from games.events import match_group

from games.selectors import games as selectors
from games import services
from games.dice import ScriptedDice
from games.errors import ServiceError
from games.events import add_listener, remove_listener
from games.models import GameEvent, Match, QueueEntry
from games.selectors.lobby import deserted, lobby_visible
from tests.services.conftest import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def batches():
    seen = []
    add_listener(seen.append)
    yield seen
    remove_listener(seen.append)


@pytest.fixture
def people(db):
    return [services.player_register(username=n, password=f"correct horse {n}") for n in ("alice", "bob", "carol")]


def start(white, black, **options):
    match = services.match_create(creator=white, **options)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=black, match_id=match.pk)
    return Table(match, white, black)


def test_suspension_forfeits_running_matches_cancels_open_ones_and_empties_the_queue(
        people, batches, django_capture_on_commit_callbacks):
    alice, bob, carol = people
    running = start(alice, bob, length=3)
    money = start(carol, alice, length=0)
    opened = services.match_create(creator=alice, length=5)
    services.queue_join(player=alice, length=1)
    assert QueueEntry.objects.filter(player=alice).exists()
    batches.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.player_set_suspended(player=alice, suspended=True)

    m = running.match
    assert m.status == Match.FINISHED and m.end_reason == "suspended" and m.winner_id == bob.pk
    end = GameEvent.objects.filter(game__match=m, type="game_end").get().payload
    assert end["matchOver"] and end["matchReason"] == "suspended" and end["matchWinner"] == "black"
    assert GameEvent.objects.filter(game__match=m, type="forfeit").get().payload == {
        "color": "white", "reason": "suspended", "scored": False}
    # the match is awarded: the game in progress scores nothing, the score stays as played
    assert (end["winner"], end["points"], end["reason"], end["score"]) == ("black", 0, "forfeit", [0, 0])
    m.refresh_from_db()
    assert (m.white_score, m.black_score) == (0, 0)
    assert money.match.status == Match.FINISHED and money.match.end_reason == "suspended"
    # a money session: the game in progress is lost at its stakes (a backgammon at the start)
    money_end = GameEvent.objects.filter(game__match=money.match, type="game_end").get().payload
    assert GameEvent.objects.filter(game__match=money.match, type="forfeit").get().payload == {
        "color": "black", "reason": "suspended"}
    assert (money_end["winner"], money_end["points"], money_end["kind"]) == ("white", 3, "backgammon")
    opened.refresh_from_db()
    assert opened.status == Match.ABORTED and opened.end_reason == "cancelled"
    assert not QueueEntry.objects.filter(player=alice).exists()
    # both players hear it (the events) and alice's sockets are told to close (the notice)
    notices = [(b.group, n) for b in batches for n in b.notices if n["t"] == "suspended"]
    assert {group for group, _ in notices} == {match_group(m) for m in (running.match_id, money.match_id, opened.pk)}
    assert all(n["d"]["player"] == alice.pk and n["d"]["reason"] == "suspended" for _, n in notices)
    # a suspended player starts nothing new
    with pytest.raises(ServiceError) as err:
        services.match_create(creator=alice)
    assert err.value.code == "suspended"


def test_reinstating_changes_no_match(people):
    alice, bob, _ = people
    table = start(alice, bob, length=3)
    services.player_set_suspended(player=alice, suspended=False)
    assert table.match.status == Match.PLAYING


def test_matches_against_the_computer_are_limited(people, settings):
    settings.GAMES_MAX_BOT_MATCHES = 2
    alice, bob, _ = people
    for _ in range(2):
        services.match_vs_bot(player=alice, level="random", length=1)
    before = Match.objects.count()
    with pytest.raises(ServiceError) as err:
        services.match_vs_bot(player=alice, level="beginner", length=1)
    assert err.value.code == "too_many_bot_matches" and "at most 2" in err.value.message
    assert Match.objects.count() == before  # nothing changed
    services.match_vs_bot(player=bob, level="random", length=1)  # the limit is per player
    # a finished one frees a place
    services.match_leave(match_id=Match.objects.filter(white=alice).first().pk, player=alice)
    services.match_vs_bot(player=alice, level="random", length=1)


def test_a_game_everyone_left_leaves_the_lobby_and_comes_back_with_a_player(
        people, batches, django_capture_on_commit_callbacks):
    alice, bob, _ = people
    table = start(alice, bob, length=3)
    for who, color in ((alice, "white"), (bob, "black")):
        services.presence_join(match_id=table.match_id, channel_name=f"c-{color}", player=who, role=color)
    assert [m.pk for m in selectors.live_matches()] == [table.match_id]
    services.presence_leave(channel_name="c-white")
    assert [m.pk for m in selectors.live_matches()] == [table.match_id]  # bob is still there
    batches.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.presence_leave(channel_name="c-black")
    assert deserted(table.match) and not lobby_visible(table.match)
    assert list(selectors.live_matches()) == []
    assert [b.lobby["t"] for b in batches if b.lobby] == ["lobby_remove"]
    batches.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.presence_join(match_id=table.match_id, channel_name="c-black2", player=bob, role="black")
    assert [m.pk for m in selectors.live_matches()] == [table.match_id]
    assert [b.lobby["t"] for b in batches if b.lobby] == ["lobby_update"]


def test_a_game_against_the_computer_is_deserted_when_its_human_leaves(people):
    alice = people[0]
    match = services.match_vs_bot(player=alice, level="random", length=1)
    services.presence_join(match_id=match.pk, channel_name="c-a", player=alice, role="white")
    assert [m.pk for m in selectors.live_matches()] == [match.pk]
    services.presence_leave(channel_name="c-a")
    assert list(selectors.live_matches()) == []


def test_match_end_tells_the_rating_changes(people):
    alice, bob, _ = people
    table = start(alice, bob, length=1)
    services.match_leave(match_id=table.match_id, player=bob)
    end = GameEvent.objects.filter(game__match_id=table.match_id, type="game_end").get().payload
    alice.refresh_from_db(), bob.refresh_from_db()
    assert end["ratingChanges"]["white"]["rating"] == round(alice.rating, 1)
    assert end["ratingChanges"]["black"]["rating"] == round(bob.rating, 1)
    assert end["ratingChanges"]["white"]["change"] > 0 > end["ratingChanges"]["black"]["change"]
    assert end["matchReason"] == "forfeit"


def test_an_aborted_match_says_so(people):
    alice, bob, _ = people
    table = start(alice, bob, length=3)
    services.match_abort(match_id=table.match_id)
    end = GameEvent.objects.filter(game__match_id=table.match_id, type="game_end").get().payload
    assert end["matchReason"] == "aborted" and end["winner"] is None and end["ratingChanges"] is None


def test_the_next_games_clock_starts_after_the_players_saw_the_last_ones_end(people, settings):
    from datetime import timedelta

    from games import clock

    settings.GAMES_NEXT_GAME_DELAY = 8
    alice, bob, _ = people
    at = clock.now()
    with clock.freeze(at):
        table = start(alice, bob, length=3, clock_delay=10, clock_bank=60)
        assert table.game.clock_started_at == at  # the first game: at once
        table.play()  # White's opening move; Black is on roll and may double
        with services.use_dice(ScriptedDice([(5,), (2,)])):
            table.do("double", "black")
            table.do("drop", "white")
    game2 = table.game
    assert game2.number == 2 and game2.clock_started_at == at + timedelta(seconds=8)
    assert game2.clock_deadline == at + timedelta(seconds=8 + 10) + timedelta(milliseconds=clock.bank_ms(
        table.match, game2.clock_color))
