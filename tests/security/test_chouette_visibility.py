"""Who may see a chouette: the match's rule (games.selectors.visibility), on every path.

A private chouette is seen by those who sat at it and by staff holding
``games.view_any_match``; staff status alone (or the model view permissions) is not enough.
Its page carries the invite link only for those seated at it.
"""

import asyncio

import pytest
from django.test import Client

from games import services
from games.selectors import visibility
from tests.consumers.conftest import open_socket
from tests.security.conftest import make_player, staff_with

MISSING = 999999


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(getattr(user, "user", user))
    return client


def _private(alice, bob):
    c = services.chouette_create(player=alice, private=True)
    services.chouette_join(player=bob, invite_code=c.invite_code)
    return c


def _paths(chouette_id):
    return [f"/chouettes/{chouette_id}/", f"/chouettes/{chouette_id}/history/", f"/chouettes/{chouette_id}/log.txt"]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "outsider", "staff_without_permission"])
def test_outsiders_get_the_404_of_a_chouette_that_does_not_exist(who, alice, bob, no_tracebacks):
    c = _private(alice, bob)
    user = {"anonymous": None, "outsider": make_player("mallory").user,
            "staff_without_permission": staff_with("view_chouette", "view_chouetteseat", "view_match")}[who]
    client = _client(user)
    for path, missing in zip(_paths(c.pk), _paths(MISSING)):
        real, absent = client.get(path), client.get(missing)
        assert real.status_code == absent.status_code == 404, path
        assert real.content.replace(path.encode(), b"") == absent.content.replace(missing.encode(), b""), path
        assert c.invite_code.encode() not in real.content
    assert not visibility.can_view_chouette(user, c)


@pytest.mark.django_db
def test_its_players_see_it_with_the_invite_staff_with_the_permission_without(alice, bob):
    c = _private(alice, bob)
    for user in (alice.user, bob.user):
        client = _client(user)
        assert all(client.get(path).status_code == 200 for path in _paths(c.pk))
        assert f"/chouettes/join/{c.invite_code}/".encode() in client.get(f"/chouettes/{c.pk}/").content
    staff = _client(staff_with("view_any_match"))
    assert all(staff.get(path).status_code == 200 for path in _paths(c.pk))
    page = staff.get(f"/chouettes/{c.pk}/").content
    assert c.invite_code.encode() not in page and b'id="invite"' not in page


@pytest.mark.django_db
def test_watching_a_private_chouette_is_no_seat_at_it(alice, bob, carol):
    """Staff who may watch it (or anyone who knows its number) sit only through the invite link."""
    from games.errors import Forbidden
    from games.models import ChouetteSeat

    c = _private(alice, bob)
    with pytest.raises(Forbidden) as info:
        services.chouette_join(player=carol, chouette_id=c.pk)
    assert info.value.code == "private_chouette"
    assert not ChouetteSeat.objects.filter(chouette=c, player=carol).exists()
    services.chouette_leave(chouette_id=c.pk, player=bob)
    services.chouette_join(player=bob, chouette_id=c.pk)  # back to a table he sat at
    services.chouette_join(player=carol, invite_code=c.invite_code)


@pytest.mark.django_db
def test_a_public_chouette_is_seen_by_anyone_with_its_invite(alice):
    c = services.chouette_create(player=alice)
    page = _client().get(f"/chouettes/{c.pk}/")
    assert page.status_code == 200 and f"/chouettes/join/{c.invite_code}/".encode() in page.content
    services.player_set_suspended(player=alice, suspended=True)
    alice.user.player.refresh_from_db()
    assert not visibility.can_view_chouette(alice.user, c)


@pytest.mark.django_db(transaction=True)
def test_the_socket_refuses_outsiders_of_a_private_chouette(alice, bob):
    c = _private(alice, bob)
    users = [None, make_player("mallory").user, staff_with("view_chouette", username="s1"),
             staff_with("view_any_match", username="s2"), alice.user]

    async def connect(user):
        sock, connected = await open_socket(f"/ws/chouettes/{c.pk}/", user)
        if connected:
            await sock.close()
        return connected

    async def run():
        return [await connect(user) for user in users]

    assert asyncio.run(run()) == [False, False, False, True, True]
