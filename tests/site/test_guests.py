"""Guests: play from an invite link with no account; unrated; no public chat; sign up later
and keep the same player (and so the history)."""

import pytest

from games import services
from games.errors import ServiceError
from games.models import Match, Player

pytestmark = pytest.mark.django_db



def test_a_guest_joins_by_invite_and_plays_unrated(alice):
    match = services.match_create(creator=alice, length=3, private=True)
    assert match.rated
    guest, joined = services.guest_join(invite_code=match.invite_code)
    assert guest.is_guest and guest.display_name.startswith("Guest ") and not guest.user.has_usable_password()
    assert joined.status == Match.PLAYING and joined.black_id == guest.pk and not joined.rated


def test_a_guest_cannot_join_a_match_that_is_not_open(alice):
    match = services.match_create(creator=alice, length=3)
    services.guest_join(invite_code=match.invite_code)
    before = Player.objects.count()
    with pytest.raises(ServiceError) as err:
        services.guest_join(invite_code=match.invite_code)
    assert err.value.code == "match_not_open" and Player.objects.count() == before


def test_guests_chat_with_their_opponent_only(alice):
    match = services.match_create(creator=alice, length=3)
    guest, _ = services.guest_join(invite_code=match.invite_code)
    services.chat_post(match_id=match.pk, player=guest, text="hello")  # the players' room
    other = services.match_create(creator=services.player_register(username="bob", password="correct horse 2"))
    with pytest.raises(ServiceError) as err:
        services.chat_post(match_id=other.pk, player=guest, text="hi all")  # a spectator there
    assert err.value.code == "guest_chat"


def test_a_guest_who_signs_up_keeps_the_player(client, alice):
    match = services.match_create(creator=alice, length=3, private=True)
    response = client.post(f"/join/{match.invite_code}/", {"guest": "1"})
    game = match.games.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    guest = Player.objects.get(is_guest=True)
    assert "Sign up to keep your games" in client.get(f"/games/{game.pk}/").content.decode()
    response = client.post(f"/accounts/signup/?next=/games/{game.pk}/", {
        "username": "gwen", "password1": "a long enough pass 123", "password2": "a long enough pass 123",
        "next": f"/games/{game.pk}/"})
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    gwen = Player.objects.get(user__username="gwen")
    assert gwen.pk == guest.pk and not gwen.is_guest and gwen.display_name == "gwen"
    assert Match.objects.get(pk=match.pk).black_id == gwen.pk
    assert client.login(username="gwen", password="a long enough pass 123")


def test_the_keyboard_help_is_shown_to_the_players_not_to_spectators(client, alice):
    from django.test import Client

    match = services.match_create(creator=alice, length=3)
    client.post(f"/join/{match.invite_code}/", {"guest": "1"})
    page = f"/games/{match.games.get().pk}/"
    assert 'id="keys-hint"' in client.get(page).content.decode()
    watched = Client().get(page)
    assert watched.status_code == 200 and 'id="keys-hint"' not in watched.content.decode()
