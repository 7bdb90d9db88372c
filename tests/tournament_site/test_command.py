"""``manage.py tournament``: create (with house bots, started now) prints the id; the bots'
turns, run through the workers' task, play it to the end; show prints the standings."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Match, Tournament
from games.tournament import load
from tests.tournament_site.conftest import playing, run_bots, tournament_matches


def manage(*args) -> str:
    out = io.StringIO()
    call_command("tournament", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_a_knockout_of_eight_house_bots_runs_to_the_end(db):
    pk = int(manage("create", "--name", "Bots night", "--format", "knockout", "--length", "1",
                    "--bots", "random:8", "--start", "now").strip())
    assert len(playing(pk)) == 4
    assert run_bots(pk) > 0
    done = Tournament.objects.get(pk=pk)
    assert done.status == Tournament.FINISHED
    matches = tournament_matches(pk)
    assert len(matches) == 7 and all(m.status == Match.FINISHED and m.end_reason == "points" for m in matches)
    assert {r.result.kind for r in load(done.state).records} == {"played"}
    shown = json.loads(manage("show", str(pk)))
    assert shown["status"] == "finished" and shown["entrants"] == 8
    assert shown["winner"]["id"] == done.winner_id == shown["standings"][0]["player"]
    assert [s["rank"] for s in shown["standings"]] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert shown["standings"][0]["name"].endswith("(house bot)")


@pytest.mark.django_db
def test_create_with_a_start_time_rounds_and_a_deadline(db):
    pk = int(manage("create", "--name", "Swiss", "--format", "swiss", "--length", "5", "--rounds", "4",
                    "--start", "2030-01-07T20:00:00+00:00", "--round-deadline", "48"))
    t = Tournament.objects.get(pk=pk)
    assert (t.status, t.options["rounds"], t.options["lengths"]["default"], t.round_deadline_hours) == (
        Tournament.REGISTERING, 4, 5, 48)
    assert t.starts_at.isoformat() == "2030-01-07T20:00:00+00:00"
    assert json.loads(manage("show", str(pk)))["standings"] == []


@pytest.mark.django_db
@pytest.mark.parametrize("args, message", [
    (["create", "--name", "x", "--format", "knockout", "--length", "0"], "bad_length"),
    (["create", "--name", "x", "--format", "knockout", "--length", "1", "--bots", "random"], "LEVEL:COUNT"),
    (["create", "--name", "x", "--format", "knockout", "--length", "1", "--start", "soon"], "ISO time"),
    (["create", "--name", "x", "--format", "knockout", "--length", "1", "--start", "now"], "too_few_entrants"),
    (["show", "999"], "tournament_not_found"),
])
def test_bad_commands_say_why(db, args, message):
    with pytest.raises(CommandError, match=message):
        manage(*args)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_registration_options_and_a_directors_actions_by_the_command(db):
    from games.models import DirectorAction, Entry

    pk = int(manage("create", "--name", "Scripted", "--format", "swiss", "--length", "1", "--max-entrants", "4",
                    "--rating-band", ":2000", "--corr-days", "2", "--bots", "random:5").strip())
    t = Tournament.objects.get(pk=pk)
    assert (t.max_entrants, t.min_rating, t.max_rating, t.corr_days) == (4, None, 2000, 2)
    assert Entry.objects.filter(tournament=t, status=Entry.WAITING).count() == 1
    manage("start", str(pk))
    manage("pause", str(pk), "--reason", "scripted pause")
    key = load(Tournament.objects.get(pk=pk).state).pending()[0]
    manage("award", str(pk), key.key, str(key.a))
    manage("resume", str(pk))
    assert list(DirectorAction.objects.filter(tournament=t).values_list("action", "by")) == [
        ("pause", None), ("award", None), ("resume", None)]
    with pytest.raises(CommandError, match="already_decided"):
        manage("award", str(pk), key.key, str(key.a))
    with pytest.raises(CommandError, match="--rating-band"):
        manage("create", "--name", "X", "--format", "swiss", "--length", "1", "--rating-band", "high")
