"""Issue 14's pages through Django's test client: favicon, the dice check page, next= kept
through sign-up and login, the lobby's "Your games" and computer levels."""

import re

import pytest

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db
HTML = {"HTTP_ACCEPT": "text/html,application/xhtml+xml"}




def finished_game(alice, bob):
    match = services.match_create(creator=alice, length=1)
    services.match_join(player=bob, match_id=match.pk)
    services.match_leave(match_id=match.pk, player=bob)
    return Game.objects.get(match=match)


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")


def test_the_dice_check_is_a_page_for_browsers_and_json_for_programs(client, alice, bob):
    game = finished_game(alice, bob)
    page = client.get(f"/games/{game.pk}/verify/", **HTML).content.decode()
    assert game.dice_seed in page and game.dice_commitment in page and "SHA-256" in page
    rows = re.findall(r'<tr class="(ok|bad)">', page)
    assert len(rows) >= 2 and set(rows) == {"ok"}  # the opening roll's dice, each recomputed
    assert client.get(f"/games/{game.pk}/verify/").json()["ok"] is True
    assert client.get(f"/games/{game.pk}/verify/?format=json", **HTML).json()["seed"] == game.dice_seed


def test_the_dice_check_page_shows_dice_that_do_not_verify(client, alice, bob):
    game = finished_game(alice, bob)
    event = game.events.filter(type="opening_roll").order_by("version").last()
    event.payload = {**event.payload, "white": event.payload["white"] % 6 + 1}  # a die the seed did not give
    event.save(update_fields=["payload"])
    page = client.get(f"/games/{game.pk}/verify/", **HTML).content.decode()
    rows = re.findall(r'<tr class="(ok|bad)">', page)
    assert rows[-2:] == ["bad", "ok"] and "do NOT verify" in page


def test_the_dice_check_page_of_a_game_in_progress_says_why(client, alice, bob):
    match = services.match_create(creator=alice, length=3)
    services.match_join(player=bob, match_id=match.pk)
    response = client.get(f"/games/{match.games.get().pk}/verify/", **HTML)
    assert response.status_code == 409 and "still being played" in response.content.decode()


def test_sign_up_from_an_invite_comes_back_to_it(client, alice):
    match = services.match_create(creator=alice, private=True)
    invite = f"/join/{match.invite_code}/"
    page = client.get(invite).content.decode()
    assert f'/accounts/signup/?next={invite}"' in page and f'/accounts/login/?next={invite}"' in page
    signup = client.get(f"/accounts/signup/?next={invite}").content.decode()
    assert f'name="next" value="{invite}"' in signup
    response = client.post("/accounts/signup/", {"username": "carol", "password1": "a long enough pass 123",
                                                 "password2": "a long enough pass 123", "next": invite})
    assert response.status_code == 302 and response.url == invite


def test_sign_up_refuses_a_next_off_the_site(client):
    response = client.post("/accounts/signup/", {"username": "carol", "password1": "a long enough pass 123",
                                                 "password2": "a long enough pass 123",
                                                 "next": "https://evil.example/"})
    assert response.status_code == 302 and response.url == "/"


def test_login_keeps_next(client, alice):
    page = client.get("/accounts/login/?next=/join/abc/").content.decode()
    assert 'name="next" value="/join/abc/"' in page and "/accounts/signup/?next=/join/abc/" in page
    response = client.post("/accounts/login/", {"username": "alice", "password": "correct horse 1",
                                                "next": "/join/abc/"})
    assert response.url == "/join/abc/"


def test_lobby_lists_your_games_and_describes_the_levels(client, alice, bob):
    match = services.match_create(creator=alice, length=3)
    services.match_join(player=bob, match_id=match.pk)
    client.force_login(alice.user)
    page = client.get("/").content.decode()
    assert 'id="my-games"' in page and f'href="/matches/{match.pk}/">Resume' in page
    assert '<option value="intermediate" selected>Intermediate</option>' in page
    assert ">World class</option>" in page and "World_class" not in page
    assert page.count('<li data-level=') == 7
