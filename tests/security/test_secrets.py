"""A running game's dice seed stays secret: from staff, superusers, exports, JSON and error
reports, until the game ends.

Tested the way it was found: a staff user holding only the view permissions walked the
admin changelist with ``?dice_seed__startswith=`` to recover a running game's seed one hex
digit at a time. Every such probe must now get the same refusal, whatever the digit.
"""

import sys

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.views.debug import ExceptionReporter

from games import services
from games.models import Game
from games.selectors.redact import is_secret_lookup
from tests.security.conftest import make_player, staff_with

HEX = "0123456789abcdef"
PROBES = [
    "/admin/games/game/?dice_seed__startswith={}",
    "/admin/games/game/?dice_seed__regex=^{}",
    "/admin/games/game/?dice_seed={}",
    "/admin/games/gameevent/?game__dice_seed__startswith={}",
    "/admin/games/match/?games__dice_seed__startswith={}",
    "/admin/games/game/?o=-dice_seed&x={}",
    "/admin/auth/user/?password__startswith={}",
    "/admin/games/agent/?key_hash__startswith={}",
]


@pytest.fixture
def running(alice, bob):
    match = services.match_create(creator=alice, length=3)
    services.match_join(player=bob, match_id=match.pk)
    game = Game.objects.get(match=match)
    assert game.status == Game.PLAYING and len(game.dice_seed) == 64
    return game


def _staff_client(*codenames, superuser=False):
    client = Client()
    if superuser:
        from django.contrib.auth import get_user_model

        client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-long"))
    else:
        client.force_login(staff_with(*codenames))
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("superuser", [False, True])
def test_the_seed_cannot_be_recovered_digit_by_digit(running, superuser, no_tracebacks):
    client = _staff_client("view_game", "view_match", "view_gameevent", "view_player", "view_agent",
                           superuser=superuser)
    assert client.get("/admin/games/game/").status_code == 200  # the user does see the admin
    before = Game.objects.values_list("pk", "dice_seed", "dice_counter", "version").get()
    for probe in PROBES:
        answers = set()
        for digit in HEX:
            response = client.get(probe.format(running.dice_seed[0] if digit == "0" else digit))
            answers.add((response.status_code, response.content))
        assert len(answers) == 1, probe  # the same answer for the right digit and the wrong ones
        status, body = answers.pop()
        if "?o=" in probe:  # sorting goes by column number: a field name is refused (302 to ?e=1)
            assert status in (302, 400), (probe, status)
            continue
        assert status == 400 and body.startswith(b"secret_field"), (probe, status)
    assert Game.objects.values_list("pk", "dice_seed", "dice_counter", "version").get() == before


@pytest.mark.django_db
def test_search_and_pages_never_show_a_running_seed(running):
    client = _staff_client(superuser=True)
    seed = running.dice_seed
    search = client.get(f"/admin/games/game/?q={seed}")
    assert search.status_code == 200  # the box echoes the query; the game itself is not found
    assert f"/admin/games/game/{running.pk}/change/".encode() not in search.content
    for path in (f"/admin/games/game/{running.pk}/change/", f"/admin/games/match/{running.match_id}/change/",
                 "/admin/games/game/", "/admin/games/gameevent/", f"/games/{running.pk}/",
                 f"/matches/{running.match_id}/export.mat", f"/games/{running.pk}/verify/",
                 f"/games/{running.pk}/replay.json"):
        response = client.get(path)
        assert seed.encode() not in response.content, path
    assert client.get(f"/games/{running.pk}/verify/").json()["error"]["code"] == "game_not_finished"


@pytest.mark.django_db
def test_the_seed_is_revealed_once_the_game_is_over(running, bob):
    services.match_leave(match_id=running.match_id, player=bob)
    running.refresh_from_db()
    client = Client()
    client.force_login(bob.user)
    assert client.get(f"/games/{running.pk}/verify/").json()["seed"] == running.dice_seed


def test_no_admin_offers_a_secret_to_search_filter_or_sort():
    request = RequestFactory().get("/admin/")
    for model, model_admin in admin.site._registry.items():
        fields = [*model_admin.get_search_fields(request), *model_admin.get_list_filter(request),
                  *(model_admin.get_ordering(request) or ()), *model_admin.list_display,
                  model_admin.date_hierarchy or ""]
        assert not [f for f in fields if isinstance(f, str) and is_secret_lookup(f)], model
        assert not model_admin.lookup_allowed("dice_seed__startswith", "a", request)


@pytest.mark.django_db
def test_error_reports_blank_the_seed(running, settings):
    settings.DEBUG = True
    request = RequestFactory().get("/")
    seed = running.dice_seed
    from games.services.dice import dice_for

    def failing(game):
        dice = dice_for(game)  # holds the seed
        dice_seed = game.dice_seed
        row = {"dice_seed": dice_seed, "n": 1}
        raise RuntimeError(f"boom {len(row)} {dice is not None}")

    try:
        failing(running)
    except RuntimeError:
        reporter = ExceptionReporter(request, *sys.exc_info())
        text, html = reporter.get_traceback_text(), reporter.get_traceback_html()
    assert "boom" in text and "dice_seed" in html and "********" in html
    assert seed not in text and seed not in html
