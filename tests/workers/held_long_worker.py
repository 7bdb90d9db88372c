"""``python -m tests.workers.held_long_worker``: the long worker (``manage.py run_long_worker``)
whose analyses are held while a flag file exists (``HELD_ANALYSIS_FLAG``), so a test can keep
every long thread busy for as long as it needs. A held analysis reports progress as a real
one does (so the time limit and cancel apply), writes ``<flag>.held-<n>`` when it starts, and
once released answers an empty analysis (the test's jobs hold no real games)."""

import os
import threading
import time
import uuid
from pathlib import Path

import django


def held_analyse_match(games, *, ply=2, progress=None, **kwargs):
    flag = os.environ["HELD_ANALYSIS_FLAG"]
    Path(f"{flag}.held-{uuid.uuid4().hex}").touch()
    while os.path.exists(flag):  # held until the test removes the flag
        if progress is not None:
            progress(0.5, "held by the test")
        time.sleep(0.05)
    overall = {"overall": {"pr": 0.0, "decisions": 0}}
    return {"format": "analysis/1", "games": [], "stats": {"white": overall, "black": overall}, "seconds": 0.0}


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")
    django.setup()
    import games.analysis
    from django.core.management import call_command

    games.analysis.analyse_match = held_analyse_match
    print(f"held long worker {os.getpid()} in {threading.current_thread().name}", flush=True)
    call_command("run_long_worker")
