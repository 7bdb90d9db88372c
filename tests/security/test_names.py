"""Names that lie are refused: bidirectional overrides, zero-width characters, the marks of
the site's own players, and a name that looks like a taken one (NFKC + case folding).
Through the sign-up form, the bot API's agent registration and the service itself."""

import json

import pytest
from django.test import Client

from games import services
from games.errors import BadRequest
from games.models import Player
from games.text import name_key

PASSWORD = "a-long-password-9"


def _signup(client, username, display_name=""):
    return client.post("/accounts/signup/", {"username": username, "display_name": display_name,
                                             "password1": PASSWORD, "password2": PASSWORD})


LIARS = {
    "bidi_override_house_bot": "\u202eevil\u200b (house bot)",
    "rtl_override": "abc\u202edef",
    "zero_width_space": "bo\u200bb",
    "zero_width_joiner": "bo\u200db",
    "bom": "\ufeffbob",
    "house_bot": "Expert (house bot)",
    "computer": "The Computer",
    "bot_mark": "alice [bot]",
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(LIARS))
def test_the_sign_up_form_refuses_names_that_lie(client, case, no_tracebacks):
    response = _signup(client, "eve", LIARS[case])
    assert response.status_code == 200
    assert response.context["form"].errors.get("display_name"), response.context["form"].errors
    assert not Player.objects.exists() and "_auth_user_id" not in client.session


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(LIARS))
def test_the_service_refuses_names_that_lie(case):
    with pytest.raises(BadRequest) as exc:
        services.player_register(username="eve", password=PASSWORD, display_name=LIARS[case])
    assert exc.value.code == "bad_name"
    assert not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("taken,second", [("Bob", "bob"), ("Bob", "ＢＯＢ"), ("Straße", "STRASSE"),
                                          ("ﬁnn", "FINN"), ("bob  smith", "Bob Smith")])
def test_display_names_are_unique_after_nfkc_and_casefold(client, taken, second, no_tracebacks):
    assert _signup(client, "first", taken).status_code == 302
    other = Client()
    response = _signup(other, "second", second)
    assert response.status_code == 200
    assert "taken" in str(response.context["form"].errors["display_name"])
    assert Player.objects.count() == 1
    assert name_key(taken) == name_key(second)


@pytest.mark.django_db
def test_a_display_name_cannot_copy_a_username(client):
    services.player_register(username="alice", password=PASSWORD)
    with pytest.raises(BadRequest) as exc:
        services.player_register(username="mallory", password=PASSWORD, display_name="ALICE")
    assert exc.value.code == "name_taken"


@pytest.mark.django_db
def test_agents_cannot_pose_as_the_house_or_a_player(settings, no_tracebacks):
    settings.GAMES_API_RATE_LIMIT = 0
    services.player_register(username="alice", password=PASSWORD)
    client = Client()
    for name, code in (("House bot", "bad_name"), ("computer", "bad_name"), ("ALICE", "name_taken"),
                       ("gnubg 2ply", "bad_name")):
        response = client.post("/api/agents", json.dumps({"name": name}), content_type="application/json")
        assert response.status_code in (400, 409), (name, response.content)
        assert response.json()["error"]["code"] == code, name
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_house_bots_keep_their_mark():
    from games.bots.levels import level_names
    from games.services.agents import house_bot

    bot = house_bot(level=level_names()[0])
    assert "(house bot)" in bot.display_name and bot.name_key == name_key(bot.display_name)


def _guest_signup(alice, username, display_name=""):
    """A guest (from an invite link) who then signs up: the claim of the guest's account."""
    match = services.match_create(creator=alice, length=3, private=True)
    client = Client()
    assert client.post(f"/join/{match.invite_code}/", {"guest": "1"}).status_code == 302
    guest = Player.objects.get(is_guest=True)
    return client, guest, _signup(client, username, display_name)


GUEST_CLAIMS = {  # (username, display name) -> the field refused and the code
    "admin": ("admin", "", "username", "bad_username"),
    "gnubg": ("gnubg", "", "username", "bad_username"),
    "computer": ("Computer", "", "username", "bad_username"),
    "house_bot_display": ("gwen", "Expert (house bot)", "display_name", "bad_name"),
    "zero_width": ("gwen", "bo\u200bb", "display_name", "bad_name"),
    "copy_display_name": ("gwen", "ALICE", "display_name", "name_taken"),
    "copy_display_nfkc": ("gwen", "ＡＬＩＣＥ", "display_name", "name_taken"),
    "copy_username": ("Alice", "", "username", "name_taken"),  # the form says "unique" first
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(GUEST_CLAIMS))
def test_a_guest_who_signs_up_follows_the_name_rules(case, no_tracebacks):
    alice = services.player_register(username="alice", password=PASSWORD)
    username, display, field, code = GUEST_CLAIMS[case]
    client, guest, response = _guest_signup(alice, username, display)
    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()
    assert {code, "unique"} & {e.code for e in errors.get(field, [])}, errors
    guest.refresh_from_db()
    assert guest.is_guest and guest.display_name.startswith("Guest ") and guest.user.username.startswith("guest-")
    with pytest.raises(BadRequest) as exc:  # the service itself, whatever the form lets through
        services.guest_claim(player=guest, username=username, password=PASSWORD, display_name=display)
    assert exc.value.code == code
    guest.refresh_from_db()
    assert guest.is_guest


@pytest.mark.django_db
def test_a_guest_who_signs_up_takes_a_name_key(no_tracebacks):
    alice = services.player_register(username="alice", password=PASSWORD)
    _client, guest, response = _guest_signup(alice, "gwen", "Gwen W")
    assert response.status_code == 302
    guest.refresh_from_db()
    assert not guest.is_guest and guest.name_key == name_key("Gwen W")
    with pytest.raises(BadRequest) as exc:  # the claimed name is now taken
        services.player_register(username="other", password=PASSWORD, display_name="gwen w")
    assert exc.value.code == "name_taken"
