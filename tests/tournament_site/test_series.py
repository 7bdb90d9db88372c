"""Recurring tournaments: an RRULE (python-dateutil) repeats a template; the periodic job,
run as the workers run it with the clock moved, opens each occurrence ``lead`` hours
before it starts, once; a bad rule is refused and changes nothing."""

import io
from datetime import datetime, timedelta, timezone

import pytest
from django.core.management import call_command

from games import clock, services, tasks
from games.errors import BadRequest
from games.models import Tournament, TournamentSeries

TUESDAY = datetime(2030, 1, 1, 20, 0, tzinfo=timezone.utc)  # 1 January 2030 is a Tuesday


def run_at(moment):
    with clock.freeze(moment):
        return tasks.run_periodic(now=moment.timestamp()).get("tournaments")


@pytest.mark.django_db
def test_every_tuesday_at_eight_opens_a_day_before_each_start():
    out = io.StringIO()
    call_command("tournament", "series", "--name", "Tuesday KO", "--format", "knockout", "--length", "5",
                 "--start", TUESDAY.isoformat(), "--every", "FREQ=WEEKLY;BYDAY=TU", "--lead", "24", stdout=out)
    series = TournamentSeries.objects.get(pk=int(out.getvalue()))
    run_at(TUESDAY - timedelta(hours=30))
    assert not Tournament.objects.exists()  # more than a day ahead
    run_at(TUESDAY - timedelta(hours=23))
    (first,) = Tournament.objects.all()
    assert (first.name, first.starts_at, first.series_id, first.status) == (
        "Tuesday KO 2030-01-01", TUESDAY, series.pk, Tournament.REGISTERING)
    assert first.options["lengths"]["default"] == 5
    run_at(TUESDAY - timedelta(hours=22))
    assert Tournament.objects.count() == 1  # made once
    run_at(TUESDAY + timedelta(days=6, hours=1))  # Monday 21:00: the next Tuesday is 23 h away
    assert sorted(t.starts_at for t in Tournament.objects.all()) == [TUESDAY, TUESDAY + timedelta(days=7)]


@pytest.mark.django_db
def test_a_series_that_ends_stops():
    series = services.tournament_series_create(by=None, name="Twice", format="swiss", length=3,
                                               rrule="FREQ=DAILY;COUNT=2", first_start=TUESDAY, lead_hours=1)
    for day in range(4):
        services.series_schedule(now=TUESDAY + timedelta(days=day, minutes=-30))
    assert Tournament.objects.filter(series=series).count() == 2
    series.refresh_from_db()
    assert not series.active


@pytest.mark.django_db
@pytest.mark.parametrize("fields, code", [
    ({"rrule": "every tuesday"}, "bad_rrule"),
    ({"rrule": "DTSTART:20300101T200000Z\nRRULE:FREQ=DAILY"}, "bad_rrule"),
    ({"first_start": datetime(2030, 1, 1, 20, 0)}, "bad_start"),
    ({"lead_hours": -1}, "bad_lead"),
    ({"format": "ladder"}, "bad_format"),
])
def test_a_bad_series_is_refused(fields, code):
    args = {"by": None, "name": "x", "format": "knockout", "length": 3, "rrule": "FREQ=WEEKLY",
            "first_start": TUESDAY, **fields}
    with pytest.raises(BadRequest) as exc:
        services.tournament_series_create(**args)
    assert exc.value.code == code
    assert not TournamentSeries.objects.exists() and not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_series_with_a_clock_preset_gives_each_occurrence_that_clock_and_a_bad_one_is_refused():
    out = io.StringIO()
    call_command("tournament", "series", "--name", "Blitz Tuesday", "--format", "swiss", "--length", "3",
                 "--start", TUESDAY.isoformat(), "--every", "FREQ=WEEKLY;BYDAY=TU", "--clock", "blitz", stdout=out)
    run_at(TUESDAY - timedelta(hours=23))
    (first,) = Tournament.objects.all()
    assert first.options["clock"] == "blitz"
    with pytest.raises(BadRequest) as refused:
        services.tournament_series_create(by=None, name="Bad", format="swiss", length=3, options={"clock": "nope"},
                                          rrule="FREQ=WEEKLY", first_start=TUESDAY)
    assert refused.value.code == "bad_clock_preset"
    assert TournamentSeries.objects.count() == 1
