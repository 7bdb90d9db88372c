"""Every service refuses bad input with a stable code and changes nothing."""

import json

import pytest

from games import services
from games.dice import ScriptedDice
from games.errors import http_status
from games.events import add_listener, frame, remove_listener
from games.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def published():
    """The game events published after commit, as a spectator receives them, in order."""
    seen = []

    def listener(batch):
        seen.extend(json.loads(frame(env, None)) for env in batch.events)

    add_listener(listener)
    yield seen
    remove_listener(listener)


def refused(t, action, color, code, **kwargs):
    """Assert the action is refused with ``code`` and that nothing changed."""
    before = t.snapshot()
    with pytest.raises(ValueError) as err:
        t.do(action, color, **kwargs)
    assert err.value.code == code, (action, err.value.code, err.value.message)
    assert err.value.message
    assert t.snapshot() == before
    return err.value


def test_refusals_in_the_move_phase(make_table, published):
    t = make_table(length=3, opening=(3, 1))
    v = t.game.version
    published.clear()
    refused(t, "move", "black", "not_your_turn", moves=[])
    refused(t, "move", "white", "must_move", moves=[])
    refused(t, "move", "white", "blocked_point", moves=[{"from": 13, "to": 12}, {"from": 6, "to": 5}])
    refused(t, "move", "white", "no_matching_die", moves=[{"from": 13, "to": 8}, {"from": 6, "to": 5}])
    refused(t, "move", "white", "must_use_both_dice", moves=[{"from": 13, "to": 10}])
    refused(t, "move", "white", "bad_step", moves=[{"from": 99, "to": 5}])
    refused(t, "move", "white", "bad_play", moves="8/5 6/5")
    refused(t, "move", "white", "stale_version", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}],
            expected_version=v - 1)
    refused(t, "move", "white", "bad_version", moves=[], expected_version="7")
    refused(t, "double", "white", "wrong_phase")
    refused(t, "roll", "white", "wrong_phase")
    refused(t, "take", "black", "not_your_turn")
    refused(t, "beaver", "black", "not_your_turn")
    refused(t, "resign_accept", "black", "not_your_turn")
    refused(t, "resign_offer", "white", "bad_level", level=5)
    assert published == []  # a refused action publishes nothing


def test_refusals_around_the_cube(make_table):
    t = make_table(length=3, opening=(3, 1))
    t.play()
    refused(t, "double", "white", "not_your_turn")
    refused(t, "take", "white", "not_your_turn")
    refused(t, "move", "black", "wrong_phase", moves=[])
    t.do("double", "black")
    # While an offer is pending, the message says what must happen first.
    assert "taken or dropped" in refused(t, "double", "black", "wrong_phase").message
    refused(t, "roll", "white", "wrong_phase")
    refused(t, "beaver", "white", "no_beaver")  # beavers are a money option
    refused(t, "raccoon", "black", "wrong_phase")


def test_strangers_suspended_players_and_unknown_games_are_refused(make_table):
    t = make_table(length=3, opening=(3, 1))
    carol = services.player_register(username="carol", password="correct horse 3")
    # (a suspension also forfeits the suspended player's match: games.services.moderation)
    services.player_set_suspended(player=t.white, suspended=True)
    before = t.snapshot()
    with pytest.raises(ValueError) as err:
        services.game_move(game_id=t.game.pk, player=carol, moves=[])
    assert err.value.code == "not_a_player" and http_status(err.value) == 403
    with pytest.raises(ValueError) as err:
        t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    assert err.value.code == "suspended"
    for bad_id in (999999, "abc", None):
        with pytest.raises(ValueError) as err:
            services.game_move(game_id=bad_id, player=t.black, moves=[])
        assert err.value.code == "game_not_found" and http_status(err.value) == 404
    assert t.snapshot() == before


def test_a_finished_game_refuses_everything(make_table):
    t = make_table(length=1, opening=(3, 1))
    game = t.game
    t.do("resign", "black")
    assert t.match.status == Match.FINISHED
    for action, kwargs in [("move", {"moves": []}), ("roll", {}), ("double", {}), ("resign", {})]:
        with pytest.raises(ValueError) as err:
            getattr(services, f"game_{action}")(game_id=game.pk, player=t.white, **kwargs)
        assert err.value.code == "game_over" and http_status(err.value) == 409


def test_match_creation_and_joining_refusals(players):
    alice, bob = players
    for options, code in [
        ({"length": -1}, "bad_length"),
        ({"length": 99}, "bad_length"),
        ({"length": 5, "jacoby": True}, "money_only_option"),
        ({"length": 0, "raccoon": True}, "raccoon_needs_beaver"),
        ({"length": 3, "cube_limit": 3}, "bad_cube_limit"),
        ({"length": 3, "private": "yes"}, "bad_option"),
    ]:
        with pytest.raises(ValueError) as err:
            services.match_create(creator=alice, **options)
        assert err.value.code == code
    assert Match.objects.count() == 0

    match = services.match_create(creator=alice, length=3, private=True)
    for kwargs, code in [
        ({"player": alice, "invite_code": match.invite_code}, "own_match"),
        ({"player": bob, "match_id": match.pk}, "private_match"),
        ({"player": bob, "invite_code": "nope"}, "match_not_found"),
        ({"player": bob, "match_id": "x"}, "match_not_found"),
    ]:
        with pytest.raises(ValueError) as err:
            services.match_join(**kwargs)
        assert err.value.code == code
    with services.use_dice(ScriptedDice([(2,), (1,)])):
        services.match_join(player=bob, invite_code=match.invite_code)
    with pytest.raises(ValueError) as err:
        services.match_join(player=bob, invite_code=match.invite_code)
    assert err.value.code == "match_not_open"


def test_events_are_published_after_commit_in_order(make_table, published, django_capture_on_commit_callbacks):
    t = make_table(length=3, opening=(3, 1))
    published.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    assert published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert [(e["t"], e["v"]) for e in published] == [("move", t.game.version)]
    assert published[0]["d"]["notation"] == "8/5 6/5"


def test_leaving_cancels_an_open_match_and_forfeits_a_started_one(players, make_table):
    alice, bob = players
    waiting = services.match_create(creator=alice, length=5)
    services.match_leave(match_id=waiting.pk, player=alice)
    waiting.refresh_from_db()
    assert waiting.status == Match.ABORTED and waiting.end_reason == "cancelled"

    t = make_table(length=5, opening=(3, 1))
    services.match_leave(match_id=t.match_id, player=t.black)
    match = t.match
    assert match.status == Match.FINISHED and match.winner_id == alice.pk and match.end_reason == "forfeit"
    assert t.game.events.order_by("-version").first().type == "game_end"
    alice.refresh_from_db()
    assert alice.rating > 1500 and alice.matches_won == 1
    with pytest.raises(ValueError) as err:
        services.match_leave(match_id=t.match_id, player=t.black)
    assert err.value.code == "match_over"


def test_leaving_a_money_session_ends_it_without_a_winner(make_table):
    t = make_table(length=0, opening=(3, 1))
    services.match_leave(match_id=t.match_id, player=t.white)
    match = t.match
    assert match.status == Match.FINISHED and match.winner_id is None
    assert match.black_score >= 1  # the game in progress was lost at its stakes


def test_admin_abort_ends_the_match_without_a_result(make_table):
    t = make_table(length=5, opening=(3, 1))
    services.match_abort(match_id=t.match_id)
    match = t.match
    assert match.status == Match.ABORTED and match.winner_id is None
    assert [e.type for e in t.game.events.order_by("version")][-2:] == ["abort", "game_end"]
    t.white.refresh_from_db()
    assert t.white.rating == 1500 and t.white.matches_played == 0
    with pytest.raises(ValueError) as err:
        services.match_abort(match_id=t.match_id)
    assert err.value.code == "match_over"


def test_game_end_is_published_before_the_next_games_events(make_table, published,
                                                            django_capture_on_commit_callbacks):
    t = make_table(length=5, opening=(3, 1))
    first = t.game.pk
    published.clear()
    with services.use_dice(ScriptedDice([(6,), (2,)])), django_capture_on_commit_callbacks(execute=True):
        t.do("resign", "black")
    order = [(e["t"], e["game"]) for e in published if "v" in e]
    assert order[:2] == [("resign", first), ("game_end", first)]
    assert [t for t, g in order[2:]] == ["game_start", "opening_roll"]
    end = next(e for e in published if e.get("t") == "game_end")
    assert end["d"]["nextGame"] == t.game.pk != first
