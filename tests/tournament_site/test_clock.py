"""Clocks of live tournament matches from the clock presets (``games.clock.CLOCK_PRESETS``,
the ones the lobby's form offers): chosen by the service, the club's form and the command,
shown by the pages and the bot API; a bad preset refused with its code."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games import clock, services
from games.errors import BadRequest
from games.models import Club, Match, Tournament
from games.tournament import load
from tests.api.conftest import agents  # noqa: F401 - the fixture
from tests.tournament_site.conftest import tournament_matches


def test_a_live_tournament_with_a_preset_creates_its_matches_with_that_clock(people):
    t = services.tournament_create(by=people[0], name="Blitz cup", format="knockout", length=3,
                                   clock_preset="blitz")
    for p in people[:4]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    delay, bank = clock.CLOCK_PRESETS["blitz"]
    matches = tournament_matches(t.pk)
    assert len(matches) == 2
    for m in matches:
        assert (m.clock_delay, m.clock_bank) == (delay, bank)
        assert m.white_bank_ms == m.black_bank_ms == bank * 1000 * 3
        game = m.games.get()
        assert game.clock_deadline is not None  # the player to act is on the clock at once
    services.match_leave(match_id=matches[0].pk, player=matches[0].black)
    services.match_leave(match_id=matches[1].pk, player=matches[1].black)
    final = tournament_matches(t.pk)[-1]  # the next round's match too
    assert final.status == Match.PLAYING and (final.clock_delay, final.clock_bank) == (delay, bank)


def test_a_player_whose_tournament_clock_runs_out_loses_and_the_event_files_the_forfeit(people):
    t = services.tournament_create(by=people[0], name="Bullet final", format="knockout", length=1,
                                   clock_preset="bullet")
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    (m,) = tournament_matches(t.pk)
    game = m.games.get()
    on_clock = m.player_of(game.clock_color)
    assert services.expire_clocks(now=game.clock_deadline - timedelta(seconds=1)) == 0
    assert services.expire_clocks(now=game.clock_deadline + timedelta(seconds=1)) == 1
    m.refresh_from_db()
    assert (m.status, m.end_reason) == (Match.FINISHED, "timeout") and m.winner_id != on_clock.pk
    done = Tournament.objects.get(pk=t.pk)
    assert (done.status, done.winner_id) == (Tournament.FINISHED, m.winner_id)
    assert load(done.state).results["M-R1-1"].result.kind == "forfeit"


def test_a_tournament_without_a_preset_has_no_clock(people):
    t = services.tournament_create(by=people[0], name="Untimed", format="knockout", length=1)
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    (m,) = tournament_matches(t.pk)
    assert (m.clock_delay, m.clock_bank, m.white_bank_ms) == (0, 0, 0)


@pytest.mark.parametrize("bad", ["lightning", "BLITZ", 12, ""])
def test_a_bad_preset_is_refused_with_a_stable_code_and_creates_nothing(people, bad):
    before = Tournament.objects.count()
    with pytest.raises(BadRequest) as refused:
        services.tournament_create(by=people[0], name="Bad", format="swiss", length=3,
                                   options={"clock": bad})
    assert refused.value.code == "bad_clock_preset"
    assert Tournament.objects.count() == before


def test_a_correspondence_tournament_takes_no_live_clock(people):
    with pytest.raises(BadRequest) as refused:
        services.tournament_create(by=people[0], name="Mixed", format="swiss", length=3, corr_days=2,
                                   clock_preset="rapid")
    assert refused.value.code == "bad_clock"
    assert not Tournament.objects.filter(name="Mixed").exists()


def test_the_command_takes_a_clock_preset_and_refuses_a_bad_one(db, capsys):
    call_command("tournament", "create", "--name", "Cmd blitz", "--format", "knockout", "--length", "1",
                 "--clock", "bullet", "--bots", "random:2", "--start", "now")
    pk = int(capsys.readouterr().out.strip())
    (m,) = tournament_matches(pk)
    assert (m.clock_delay, m.clock_bank) == clock.CLOCK_PRESETS["bullet"]
    call_command("tournament", "show", str(pk))
    assert '"preset": "bullet"' in capsys.readouterr().out
    with pytest.raises(CommandError, match="bad_clock_preset"):
        call_command("tournament", "create", "--name", "Nope", "--format", "swiss", "--length", "3",
                     "--clock", "nope")
    assert not Tournament.objects.filter(name="Nope").exists()


def test_the_club_form_chooses_a_preset_and_the_page_shows_it(people):
    club = services.club_create(by=people[0], name="Clockers")
    client = Client()
    client.force_login(people[0].user)
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert 'name="clock"' in page and 'value="rapid"' in page
    client.post(f"/clubs/{club.pk}/tournaments/", {"name": "Club rapid", "format": "swiss", "length": "3",
                                                    "clock": "rapid"})
    t = Tournament.objects.get(name="Club rapid")
    assert t.options["clock"] == "rapid" and t.club_id == club.pk
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    delay, bank = clock.CLOCK_PRESETS["rapid"]
    assert f"Clock: Rapid, {delay} s per move + {bank} s bank per point" in page
    client.post(f"/clubs/{club.pk}/tournaments/", {"name": "Club bad", "format": "swiss", "length": "3",
                                                    "clock": "nope"})
    assert not Tournament.objects.filter(name="Club bad").exists()
    assert Club.objects.count() == 1


def test_the_bot_api_shows_the_clock(agents):
    (a,) = agents(1)
    t = services.tournament_create(by=None, name="API blitz", format="swiss", length=3, clock_preset="blitz")
    plain = services.tournament_create(by=None, name="API plain", format="swiss", length=3)
    delay, bank = clock.CLOCK_PRESETS["blitz"]
    assert a.get(f"/api/tournaments/{t.pk}").json()["clock"] == {"preset": "blitz", "label": "Blitz",
                                                                  "delay": delay, "bankPerPoint": bank}
    assert a.get(f"/api/tournaments/{plain.pk}").json()["clock"] is None
    listed = {x["id"]: x["clock"] for x in a.get("/api/tournaments").json()["tournaments"]}
    assert listed[t.pk]["preset"] == "blitz" and listed[plain.pk] is None


def test_the_lobby_offers_the_presets_and_a_preset_sets_the_match_clock(people):
    client = Client()
    client.force_login(people[0].user)
    page = client.get("/").content.decode()
    for name in clock.CLOCK_PRESETS:
        assert f'value="{name}"' in page
    client.post("/matches/new/", {"length": "3", "cube": "on", "crawford": "on", "clock_preset": "standard"})
    m = Match.objects.filter(white=people[0]).latest("pk")
    assert (m.clock_delay, m.clock_bank) == clock.CLOCK_PRESETS["standard"]
    count = Match.objects.count()
    client.post("/matches/new/", {"length": "3", "clock_preset": "nope"})
    assert Match.objects.count() == count
