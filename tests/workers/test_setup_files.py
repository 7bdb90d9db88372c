"""Every way the site is started runs both kinds of workers (docs/DEPLOY.md, "Two kinds of
work"): ``make run``, the Procfile and the systemd units start a quick worker (``run_huey``)
and a long worker (``run_long_worker``), and both are commands of the site."""

import re
from pathlib import Path

from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]


def _commands(text: str) -> set:
    return set(re.findall(r"manage\.py (run_huey|run_long_worker)\b", text))


def test_make_run_starts_the_site_and_both_workers_and_stops_all_if_one_dies():
    makefile = (ROOT / "Makefile").read_text()
    run = makefile[makefile.index("\nrun:"):makefile.index("\ntest:")]
    assert _commands(run) == {"run_huey", "run_long_worker"}
    assert "backgammon_site.serve" in run and "wait -n" in run and "kill 0" in run


def test_the_procfile_and_the_units_start_both_kinds_of_workers():
    assert _commands((ROOT / "Procfile").read_text()) == {"run_huey", "run_long_worker"}
    assert _commands((ROOT / "deploy" / "backgammon-worker@.service").read_text()) == {"run_huey"}
    assert _commands((ROOT / "deploy" / "backgammon-long-worker@.service").read_text()) == {"run_long_worker"}
    deploy = (ROOT / "docs" / "DEPLOY.md").read_text()
    assert "backgammon-long-worker@1" in deploy and "run_long_worker" in deploy


def test_both_worker_commands_are_the_sites():
    commands = get_commands()
    assert commands["run_huey"] == "huey.contrib.djhuey"
    assert commands["run_long_worker"] == "games"


def test_the_two_queues_are_apart():
    from django.conf import settings
    from huey.contrib.djhuey import HUEY

    from games.tasks import bot_turn, clock_deadline, tick
    from games.tasks.long import LONG_HUEY, run_job

    assert HUEY.name != LONG_HUEY.name and settings.HUEY["name"] != settings.HUEY_LONG["name"]
    assert settings.HUEY["connection"] != settings.HUEY_LONG["connection"] or settings.HUEY["connection"].get("url")
    assert run_job.huey is LONG_HUEY
    assert all(task.huey is HUEY for task in (bot_turn, clock_deadline, tick))
    assert settings.HUEY_LONG["consumer"]["periodic"] is False
