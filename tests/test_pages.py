"""The browser client's pages (views are thin: selectors to read, services to write)."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return services.player_register(username="alice", password="correct horse 1")


@pytest.fixture
def bob():
    return services.player_register(username="bob", password="correct horse 2")


def login(client, player):
    client.force_login(player.user)
    return client


def test_home_is_the_lobby_with_the_new_match_form(client, alice):
    page = login(client, alice).get("/").content.decode()
    assert 'id="open-matches"' in page and 'id="live-matches"' in page
    assert 'action="/matches/new/"' in page and "js/lobby.mjs" in page


def test_new_match_form_creates_a_match_and_opens_its_waiting_room(client, alice):
    response = login(client, alice).post("/matches/new/", {
        "kind": "match", "length": "3", "cube": "on", "cube_limit": "16", "crawford": "on",
        "clock_delay": "8", "clock_bank": "60", "private": "on", "spectators": "on"})
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"
    assert (match.length, match.cube, match.cube_limit, match.crawford) == (3, True, 16, True)
    assert (match.clock_delay, match.clock_bank, match.private, match.spectators_allowed) == (8, 60, True, True)
    page = client.get(response.url).content.decode()
    assert f"/join/{match.invite_code}/" in page


def test_money_session_options(client, alice):
    login(client, alice).post("/matches/new/", {"kind": "money", "cube": "on", "cube_limit": "", "jacoby": "on",
                                                "beaver": "on", "spectators": "on"})
    match = Match.objects.get()
    assert (match.length, match.jacoby, match.beaver, match.raccoon, match.cube_limit) == (0, True, True, False, None)


def test_a_refused_option_comes_back_as_a_message(client, alice):
    response = login(client, alice).post("/matches/new/", {"kind": "match", "length": "1", "clock_delay": "9999"},
                                         follow=True)
    assert not Match.objects.exists()
    assert "clock_delay" in response.content.decode()


def test_invite_link_confirms_then_joins_and_the_status_follows(client, alice, bob):
    match = services.match_create(creator=alice, length=1, private=True)
    # a private match is not for outsiders: 404, as for a match that does not exist
    assert client.get(f"/matches/{match.pk}/status.json").status_code == 404
    login(client, bob)
    page = client.get(f"/join/{match.invite_code}/")
    assert page.status_code == 200 and b"Join and play" in page.content
    assert Match.objects.get().status == "open"  # a GET joins nothing
    response = client.post(f"/join/{match.invite_code}/")
    game = Game.objects.get()
    assert response.url == f"/games/{game.pk}/"
    assert client.get(f"/matches/{match.pk}/status.json").json()["game"] == game.pk
    assert client.get(f"/matches/{match.pk}/").url == f"/games/{game.pk}/"


def test_joining_needs_a_login(client, alice):
    match = services.match_create(creator=alice, length=1)
    response = client.post(f"/join/{match.invite_code}/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def _started(alice, bob, **options):
    match = services.match_create(creator=alice, length=1, **options)
    services.match_join(player=bob, match_id=match.pk)
    return Game.objects.get(match=match)


def test_game_page_boots_with_the_viewers_snapshot_and_the_history(client, alice, bob):
    game = _started(alice, bob)
    page = login(client, bob).get(f"/games/{game.pk}/").content.decode()
    boot = json.loads(page.split('<script id="boot" type="application/json">')[1].split("</script>")[0])
    assert boot["snapshot"]["d"]["you"] == "black" and boot["snapshot"]["v"] == game.version
    assert [e["t"] for e in boot["history"]][:2] == ["game_start", "opening_roll"]


def test_spectators_only_where_the_match_allows_them(client, alice, bob):
    game = _started(alice, bob, spectators_allowed=False)
    # Outsiders get the answer a game that does not exist gets (nothing confirms it exists).
    assert client.get(f"/games/{game.pk}/").status_code == 404
    carol = services.player_register(username="carol", password="correct horse 3")
    assert login(client, carol).get(f"/games/{game.pk}/").status_code == 404
    assert client.get(f"/games/{game.pk}/replay.json").status_code == 404


def test_replay_json_only_once_the_game_is_over(client, alice, bob):
    game = _started(alice, bob)
    assert client.get(f"/games/{game.pk}/replay.json").status_code == 409
    services.game_resign(game_id=game.pk, player=alice)
    data = client.get(f"/games/{game.pk}/replay.json").json()
    kinds = [s["t"] for s in data["steps"]]
    assert kinds[0] == "game_start" and kinds[-1] == "game_end"
    assert data["steps"][0]["position"]["board"][24] == 2
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200


def test_profile_and_leaderboard(client, alice, bob):
    game = _started(alice, bob)
    services.game_resign(game_id=game.pk, player=bob)
    page = client.get(f"/players/{alice.pk}/").content.decode()
    assert "won" in page and f"/games/{game.pk}/replay/" in page and f"/matches/{game.match_id}/export.mat" in page
    board = client.get("/leaderboard/").content.decode()
    assert board.index("alice") < board.index("bob")


def test_play_the_computer_answers_clearly(client, alice, monkeypatch):
    login(client, alice)
    monkeypatch.delattr(services, "match_vs_bot", raising=False)
    response = client.post("/play/computer/", {"level": "x", "length": "1"}, follow=True)
    assert "not available yet" in response.content.decode()
