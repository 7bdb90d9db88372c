"""Dice verification of finished games (games.selectors.verify), the verify_dice command,
and the HTTP endpoints for verification and the .mat export."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games import services
from games.errors import Conflict
from games.models import Game, GameEvent
from games.selectors.verify import verify_game
from tests.test_export import play_match


@pytest.fixture
def fair_match(db):
    """A 3-point match rolled with each game's own fair seed (no scripted dice)."""
    return play_match(dice=False, names=("ivy", "jack"))


def _finished_game(match):
    """The finished game with the most rolls (game 1 ends at once with a double and a drop)."""
    games = match.games.filter(status=Game.FINISHED)
    game = max(games, key=lambda g: g.events.filter(type="roll").count())
    assert game.events.filter(type="roll").count() > 10
    return game


def _tamper_roll(game):
    """Change the dice of the game's last roll event; returns (version, counter)."""
    event = game.events.filter(type="roll").order_by("-version").first()
    dice = event.payload["dice"]
    event.payload = {**event.payload, "dice": [1, 2] if sorted(dice) != [1, 2] else [6, 6]}
    GameEvent.objects.filter(pk=event.pk).update(payload=event.payload)
    return event.version, event.payload["counter"]


@pytest.mark.django_db
def test_a_finished_game_verifies(fair_match):
    for game in fair_match.games.all():
        result = verify_game(game)
        assert result["ok"] is True, result["problems"]
        assert result["problems"] == []
        opening = game.events.filter(type="opening_roll").count()
        rolls = game.events.filter(type="roll").count()
        assert result["rolls"] == 2 * opening + rolls >= 2
        assert result["seed"] == game.dice_seed and result["commitment"] == game.dice_commitment


@pytest.mark.django_db
def test_a_tampered_roll_fails_and_is_named(fair_match):
    game = _finished_game(fair_match)
    version, counter = _tamper_roll(game)
    result = verify_game(game)
    assert result["ok"] is False
    assert len(result["problems"]) == 1
    assert f"counter {counter}" in result["problems"][0]
    assert f"[event v{version}]" in result["problems"][0]


@pytest.mark.django_db
def test_a_tampered_opening_die_or_seed_fails(fair_match):
    game = _finished_game(fair_match)
    event = game.events.filter(type="opening_roll").order_by("version").first()
    payload = {**event.payload, "white": event.payload["white"] % 6 + 1}
    GameEvent.objects.filter(pk=event.pk).update(payload=payload)
    result = verify_game(game)
    assert not result["ok"] and f"counter {payload['counters'][0]}" in result["problems"][0]

    other = fair_match.games.exclude(pk=game.pk).first()
    Game.objects.filter(pk=other.pk).update(dice_seed="00" * 32)
    other.refresh_from_db()
    result = verify_game(other)
    assert not result["ok"] and any("commitment mismatch" in p for p in result["problems"])


@pytest.mark.django_db
def test_an_unfinished_game_is_refused(db):
    p1 = services.player_register(username="kim", password="pw-kimkimkim")
    p2 = services.player_register(username="lee", password="pw-leeleelee")
    m = services.match_create(creator=p1, length=3)
    services.match_join(player=p2, match_id=m.pk)
    with pytest.raises(Conflict) as err:
        verify_game(m.games.get())
    assert err.value.code == "game_not_finished"


@pytest.mark.django_db
def test_command_ok_and_mismatch(fair_match):
    games = list(fair_match.games.order_by("number"))
    out = StringIO()
    call_command("verify_dice", *[str(g.pk) for g in games], stdout=out)
    assert out.getvalue().count(": OK,") == len(games)

    tampered = _finished_game(fair_match)
    version, counter = _tamper_roll(tampered)
    out = StringIO()
    with pytest.raises(CommandError) as err:
        call_command("verify_dice", *[str(g.pk) for g in games], stdout=out, stderr=StringIO())
    assert err.value.returncode == 1
    assert f"game {tampered.pk}: MISMATCH" in out.getvalue() and f"counter {counter}" in out.getvalue()
    assert out.getvalue().count(": OK,") == len(games) - 1

    with pytest.raises(CommandError):
        call_command("verify_dice", "999999", stdout=StringIO(), stderr=StringIO())


@pytest.mark.django_db
def test_verify_endpoint(fair_match):
    client = Client()
    game = _finished_game(fair_match)
    response = client.get(f"/games/{game.pk}/verify/")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and body["seed"] == game.dice_seed and body["rolls"] > 2

    _tamper_roll(game)
    assert client.get(f"/games/{game.pk}/verify/").json()["ok"] is False

    assert client.get("/games/999999/verify/").status_code == 404


@pytest.mark.django_db
def test_verify_endpoint_refuses_a_game_in_progress(db):
    p1 = services.player_register(username="max", password="pw-maxmaxmax")
    p2 = services.player_register(username="ned", password="pw-nednedned")
    m = services.match_create(creator=p1, length=3)
    services.match_join(player=p2, match_id=m.pk)
    response = Client().get(f"/games/{m.games.get().pk}/verify/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "game_not_finished"
    assert m.games.get().dice_seed not in response.content.decode()


@pytest.mark.django_db
def test_export_endpoint(fair_match):
    from games.selectors.export import match_to_mat

    response = Client().get(f"/matches/{fair_match.pk}/export.mat")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response["Content-Disposition"] == f'attachment; filename="match-{fair_match.pk}.mat"'
    assert response.content.decode() == match_to_mat(fair_match)
    assert response.content.decode().startswith(" 3 point match\n")
    assert Client().get("/matches/999999/export.mat").status_code == 404
