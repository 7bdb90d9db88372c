"""Vacations: correspondence deadlines move by the vacation, a turn that comes meanwhile waits
for the return, days per year are counted, refusals change nothing, opponents see it, live
matches are not paused (time moved with clock.freeze, never slept)."""

from datetime import timedelta

import pytest
from django.test import Client

from games import clock, services
from games.dice import ScriptedDice
from games.models import Game, Player

pytestmark = pytest.mark.django_db

START = clock.now()
DAY = timedelta(days=1)


def _match(white, black, *, opening=(3, 1), **options):
    with clock.freeze(START):
        match = services.match_create(creator=white, length=3, **options)
        with services.use_dice(ScriptedDice([(opening[0],), (opening[1],)])):
            services.match_join(player=black, match_id=match.pk)
    return Game.objects.get(match=match)


def _client(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_a_vacation_moves_the_deadlines_and_waits_for_the_return(alice, bob, settings):
    settings.GAMES_VACATION_DAYS = 10
    waiting = _match(alice, bob, corr_days=2, corr_bank_days=1)  # Alice (White) to move
    theirs = _match(alice, bob, opening=(1, 3), corr_days=2, corr_bank_days=1)  # Bob to move
    live = _match(alice, bob, clock_delay=10, clock_bank=60)
    live_deadline = live.clock_deadline
    with clock.freeze(START + DAY):
        alice = services.player_vacation_start(player=alice, days=4)
    assert alice.vacation_until == START + 5 * DAY and alice.vacation_days_used == 4
    assert Game.objects.get(pk=waiting.pk).clock_deadline == START + 3 * DAY + 4 * DAY
    assert Game.objects.get(pk=live.pk).clock_deadline == live_deadline  # live play is not paused
    assert services.sweep(now=START + DAY + timedelta(hours=1))["timeouts"] == 1  # the live match only

    # Bob moves during Alice's vacation: her clock in that match starts when she is back.
    with clock.freeze(START + 2 * DAY), services.use_dice(ScriptedDice([(6, 5)])):
        state = Game.objects.get(pk=theirs.pk).game_state()
        services.game_move(game_id=theirs.pk, player=bob, moves=[s.to_dict() for s in state.legal_plays()[0].steps])
    game = Game.objects.get(pk=theirs.pk)
    assert game.clock_color == "white" and game.clock_started_at == START + 5 * DAY
    assert game.clock_deadline == START + 5 * DAY + 3 * DAY

    # Nothing of the vacation is charged: Alice moves on her return, her bank is whole.
    with clock.freeze(START + 5 * DAY + timedelta(hours=1)):
        state = Game.objects.get(pk=waiting.pk).game_state()
        services.game_move(game_id=waiting.pk, player=alice, moves=[s.to_dict() for s in state.legal_plays()[0].steps])
    assert Game.objects.get(pk=waiting.pk).match.white_bank_ms == 86_400_000

    # Opponents see it (while it lasts): the game page, the list of matches, the bot API's view.
    with clock.freeze(START + 2 * DAY):
        page = _client(bob).get(f"/games/{theirs.pk}/").content.decode()
        assert "alice is on vacation until" in page.lower()
        assert "on vacation until" in _client(bob).get("/matches/?turn=theirs").content.decode()
        settings_page = _client(alice).get("/settings/").content.decode()
        assert "6 of 10 days of vacation left this year" in settings_page and "On vacation until" in settings_page


def test_days_per_year_and_refusals_change_nothing(alice, settings):
    settings.GAMES_VACATION_DAYS = 5
    for days, code in ((0, "bad_days"), ("3", "bad_days"), (6, "vacation_too_long")):
        with pytest.raises(ValueError) as err:
            services.player_vacation_start(player=alice, days=days)
        assert err.value.code == code
    assert Player.objects.get(pk=alice.pk).vacation_until is None
    with clock.freeze(START):
        services.player_vacation_start(player=alice, days=3)
        with pytest.raises(ValueError) as err:
            services.player_vacation_start(player=alice, days=1)
        assert err.value.code == "on_vacation"
    with clock.freeze(START + 4 * DAY):
        if (START + 4 * DAY).year == START.year:
            with pytest.raises(ValueError) as err:
                services.player_vacation_start(player=alice, days=3)
            assert err.value.code == "vacation_too_long"
            response = _client(alice).post("/settings/vacation/", {"days": "2"}, follow=True)
            assert "On vacation until" in response.content.decode()
    next_year = START.replace(year=START.year + 1, month=1, day=2)
    with clock.freeze(next_year):
        assert services.player_vacation_start(player=alice, days=5).vacation_days_used == 5
