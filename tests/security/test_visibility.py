"""Private means private: one rule (games.selectors.visibility) on every path that shows a match.

A private match with spectators off, seen by an outsider (logged in or not), must answer
404 everywhere, exactly as a match that does not exist: its waiting room, status JSON,
.mat export, game page, replay JSON, dice verification (after it ends), the profile list,
the lobby, the websocket handshake and the bot API. Its players and staff holding
``games.view_any_match`` see it; a staff user without that permission does not.
"""

import asyncio
import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import services
from games.selectors import visibility
from games.models import Game, Match
from tests.consumers.conftest import open_socket
from tests.security.conftest import make_player, staff_with

MISSING = 999999


def _private_started(alice, bob, **options):
    match = services.match_create(creator=alice, length=3, private=True, spectators_allowed=False, **options)
    services.match_join(player=bob, invite_code=match.invite_code)
    match.refresh_from_db()
    return match, Game.objects.get(match=match)


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(getattr(user, "user", user))
    return client


def _pages(match, game):
    return [f"/matches/{match.pk}/", f"/matches/{match.pk}/status.json", f"/matches/{match.pk}/export.mat",
            f"/games/{game.pk}/", f"/games/{game.pk}/replay/", f"/games/{game.pk}/replay.json",
            f"/games/{game.pk}/verify/"]


def _missing_pages():
    return [f"/matches/{MISSING}/", f"/matches/{MISSING}/status.json", f"/matches/{MISSING}/export.mat",
            f"/games/{MISSING}/", f"/games/{MISSING}/replay/", f"/games/{MISSING}/replay.json",
            f"/games/{MISSING}/verify/"]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "outsider", "staff_without_permission"])
def test_outsiders_get_the_404_of_a_match_that_does_not_exist(who, alice, bob, no_tracebacks):
    match, game = _private_started(alice, bob)
    services.match_leave(match_id=match.pk, player=bob)  # over: the verify page would show the seed
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    user = {"anonymous": None, "outsider": make_player("mallory").user,
            "staff_without_permission": staff_with("view_game", "view_match")}[who]
    client = _client(user)
    for path, missing in zip(_pages(match, game), _missing_pages()):
        real, absent = client.get(path), client.get(missing)
        assert real.status_code == absent.status_code == 404, path
        assert real.content.replace(path.encode(), b"") == absent.content.replace(missing.encode(), b""), path
        assert game.dice_seed.encode() not in real.content and b"alice" not in real.content


@pytest.mark.django_db
def test_players_and_staff_with_the_permission_see_it(alice, bob):
    match, game = _private_started(alice, bob)
    staff = staff_with("view_any_match")
    for user in (alice.user, bob.user, staff):
        client = _client(user)
        assert client.get(f"/matches/{match.pk}/status.json").status_code == 200
        assert client.get(f"/matches/{match.pk}/export.mat").status_code == 200
        assert client.get(f"/games/{game.pk}/").status_code == 200
        assert visibility.can_view_match(user, match)
        assert list(visibility.visible_matches(user).values_list("pk", flat=True)) == [match.pk]


@pytest.mark.django_db
def test_a_private_open_match_waiting_room_is_not_for_outsiders(alice):
    match = services.match_create(creator=alice, length=1, private=True)  # spectators allowed, still private
    assert _client(make_player("mallory")).get(f"/matches/{match.pk}/").status_code == 404
    assert _client().get(f"/matches/{match.pk}/status.json").status_code == 404
    assert _client(alice).get(f"/matches/{match.pk}/").status_code == 200
    # the invite link is the capability: whoever holds it may see the match to join it
    assert _client(make_player("guest")).get(f"/join/{match.invite_code}/").status_code == 200


@pytest.mark.django_db
def test_profiles_list_only_matches_the_viewer_may_see(alice, bob):
    private, _ = _private_started(alice, bob)
    services.match_leave(match_id=private.pk, player=bob)
    public = services.match_create(creator=alice, length=1)
    services.match_join(player=bob, match_id=public.pk)
    services.match_leave(match_id=public.pk, player=bob)
    assert Match.objects.filter(status=Match.FINISHED).count() == 2
    own = _client(alice).get(f"/players/{alice.pk}/").content.decode()
    outsider = _client(make_player("mallory")).get(f"/players/{alice.pk}/").content.decode()
    anonymous = _client().get(f"/players/{alice.pk}/").content.decode()
    assert f"/matches/{private.pk}/export.mat" in own and f"/matches/{public.pk}/export.mat" in own
    for page in (outsider, anonymous):
        assert f"/matches/{private.pk}/export.mat" not in page
        assert f"/matches/{public.pk}/export.mat" in page


@pytest.mark.django_db
def test_the_one_rule_for_spectators(alice, bob):
    match = services.match_create(creator=alice, length=1, spectators_allowed=True, anonymous_spectators=False)
    outsider = make_player("mallory")
    assert visibility.can_view_match(outsider.user, match)
    assert not visibility.can_view_match(AnonymousUser(), match)
    assert not visibility.can_view_match(None, match)
    services.player_set_suspended(player=outsider, suspended=True)
    outsider.user.player.refresh_from_db()
    assert not visibility.can_view_match(outsider.user, match)
    assert not visibility.visible_matches(outsider.user).exists()
    assert list(visibility.visible_matches(AnonymousUser())) == []


@pytest.mark.django_db(transaction=True)
def test_the_socket_refuses_outsiders_of_a_private_match(alice, bob):
    match, game = _private_started(alice, bob)
    mallory = make_player("mallory")

    async def connect(user):
        sock, connected = await open_socket(f"/ws/games/{game.pk}/", user)
        if connected:
            await sock.close()
        return connected

    async def run():
        return [await connect(None), await connect(mallory), await connect(alice)]

    assert asyncio.run(run()) == [False, False, True]


@pytest.mark.django_db
def test_the_lobby_and_the_bot_api_do_not_show_it(alice, bob, settings):
    settings.GAMES_API_RATE_LIMIT = 0
    match, _ = _private_started(alice, bob)
    from games.selectors import games as selectors

    assert match.pk not in [m.pk for m in selectors.live_matches()]
    assert match.pk not in [m.pk for m in selectors.open_matches()]
    client = Client()
    data = client.post("/api/agents", json.dumps({"name": "prober"}), content_type="application/json").json()
    response = client.get(f"/api/matches/{match.pk}", headers={"Authorization": f"Bearer {data['apiKey']}"})
    missing = client.get(f"/api/matches/{MISSING}", headers={"Authorization": f"Bearer {data['apiKey']}"})
    assert response.status_code == missing.status_code == 404
    assert response.json()["error"]["code"] == missing.json()["error"]["code"] == "match_not_found"
