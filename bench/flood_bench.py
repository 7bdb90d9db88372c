"""Can one user starve the site's background work? A flood of analyses and uploads against a
player waiting on a house bot, through the real processes (issue 27, "Measure").

    .venv/bin/python bench/flood_bench.py                    # the embedded default (make run)
    .venv/bin/python bench/flood_bench.py --setup redis      # PostgreSQL + Redis
    .venv/bin/python bench/flood_bench.py --matches 20 --files 20 --length 3

The site runs as ``make run`` and the deploy files set it up: one web process, one quick worker
(``run_huey``, ``GAMES_WORKER_THREADS`` 4) and one long worker (``run_long_worker``,
``GAMES_LONG_WORKER_THREADS`` 2). ``redis`` uses PostgreSQL (``TEST_DATABASE_URL``'s server, a
fresh database) and a Redis of its own (a free port, or ``BENCH_REDIS_URL``).

1. **Before**: user B plays a match against a house bot (beginner) over a websocket; every
   reply time is from B's play sent to the bot's next decision on B's socket.
2. **During the flood**: user A, over HTTP as a browser does, asks for the analysis at depth 3
   of each of ``--matches`` finished matches and uploads ``--files`` different ``.mat`` files
   at depth 3, as fast as the site lets them (every refused request is tried again each pass,
   until B's match is over), while B plays another match. Printed: B's reply median, p95 and
   max before and during, the periodic tick's intervals during the flood, and how many of A's
   requests were accepted and refused (by code).
3. **40 matches ending at once**: 40 automatic analyses (depth 2) are queued together; then a
   player asks for the analysis of their own match (depth 1): the seconds until its job starts.

Targets (issue 27): B's median under 0.5 s and p95 under 1 s during the flood; no tick interval
over twice its period (5 s); A refused past the limit with the documented codes; the player's
own request started within 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bot_reply_bench import one_match  # noqa: E402
from tests.live import RedisServer, Site  # noqa: E402
from tests.support import free_port  # noqa: E402

CSRF = "benchcsrftoken0123456789abcdefgh"  # a 32-character secret of the client's own, as Django allows

SETUP = """
import json
from games import services
from games.selectors.export import match_to_mat
from tests.services.conftest import Table
a = services.player_register(username="flooder", password=None)
o = services.player_register(username="other", password=None)
services.player_register(username="owner", password=None)
matches, mats = [], []
for n in range(%(matches)d):
    match = services.match_create(creator=a, length=1)
    services.match_join(player=o, match_id=match.pk)
    table = Table(match, a, o)
    while table.match.status != "finished":
        table.play_to_end()
    matches.append(match.pk)
    mats.append(match_to_mat(table.match))
print("RESULT " + json.dumps({"matches": matches, "mats": mats}))
"""

TICKS = """
import json
from games.models import PeriodicRun
rows = PeriodicRun.objects.filter(name="tick", ran_at__gte=%r).order_by("period").values_list("ran_at", flat=True)
print("RESULT " + json.dumps([r.timestamp() for r in rows]))
"""

JOBS = """
import json
from django.db.models import Count
from games.models import Job
print("RESULT " + json.dumps(dict(Job.objects.values_list("status").annotate(n=Count("pk")))))
"""

ENDING_AT_ONCE = """
import json
from django.conf import settings
from games.models import Job, Match
from games.services.analysis import analysis_after_match
settings.GAMES_ANALYSIS_AUTO = True
settings.GAMES_ANALYSIS_DEPTH = 2
Job.objects.filter(status__in=["queued", "running"]).update(status="cancelled")  # the flood is over
ids = list(Match.objects.filter(status="finished").order_by("pk").values_list("pk", flat=True))
made = 0
while made < 40:
    for pk in ids:
        if made < 40 and analysis_after_match(Match.objects.get(pk=pk)) is not None:
            made += 1
print("RESULT " + json.dumps({"auto": made, "own_match": ids[-1]}))
"""

OWN_STARTED = """
import json
from games.models import Analysis
a = Analysis.objects.filter(owner__user__username="owner").select_related("job").order_by("-pk").first()
job = a.job if a else None
print("RESULT " + json.dumps({"started": job.started_at.timestamp() if job and job.started_at else None,
                              "status": job.status if job else None}))
"""

OWN_MATCH = """
import json
from games import services
from games.models import Match, Player
from tests.services.conftest import Table
owner = Player.objects.get(user__username="owner")
o = Player.objects.get(user__username="other")
match = services.match_create(creator=owner, length=1)
services.match_join(player=o, match_id=match.pk)
table = Table(match, owner, o)
while table.match.status != "finished":
    table.play_to_end()
print("RESULT " + json.dumps({"match": match.pk}))
"""


class Http:
    """A logged-in browser-like HTTP client of the site (session cookie, CSRF token)."""

    def __init__(self, base: str, session: str):
        self.base, self.cookie = base, f"sessionid={session}; csrftoken={CSRF}"

    def post(self, path: str, fields: dict, file: tuple | None = None) -> tuple:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        if file is not None:
            name, filename, content = file
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                         f'Content-Type: application/octet-stream\r\n\r\n'.encode() + content + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST", headers={
            "Cookie": self.cookie, "X-CSRFToken": CSRF, "Content-Type": f"multipart/form-data; boundary={boundary}"})
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=60) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def refusal_code(status: int, page: str) -> str:
    if status in (301, 302, 303):
        return "accepted"
    marker = 'data-code="'
    at = page.find(marker)
    return page[at + len(marker):page.find('"', at + len(marker))] if at >= 0 else f"http_{status}"


def flood(http: Http, matches: list, mats: list, stop: threading.Event, out: Counter, passes: list) -> None:
    """A's requests: every analysis and upload not yet accepted, tried again each pass until ``stop``."""
    todo = [("analysis", m) for m in matches] + [("upload", n) for n in range(len(mats))]
    while todo and not stop.is_set():
        left = []
        for kind, what in todo:
            if kind == "analysis":
                status, page = http.post(f"/matches/{what}/analysis/", {"depth": "3"})
            else:
                status, page = http.post("/analysis/upload/", {"depth": "3"},
                                         file=("file", f"m{what}.mat", mats[what].encode()))
            code = refusal_code(status, page)
            out[f"{kind} {code}"] += 1
            if code != "accepted":
                left.append((kind, what))
        passes.append(time.time())
        todo = left
        stop.wait(5)  # the next pass: refused requests are tried again


def summary(times: list) -> str:
    times = sorted(times)
    if not times:
        return "no replies"
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return f"{len(times)} replies: median {statistics.median(times):.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s"


def run(args, tmp: Path) -> dict:
    redis = None
    env = {"GAMES_WORKER_THREADS": "4", "GAMES_LONG_WORKER_THREADS": "2"}
    try:
        shared = {}
        if args.setup == "redis":
            url = os.environ.get("BENCH_REDIS_URL")
            if not url:
                redis = RedisServer(free_port(), tmp)
                redis.start()
                url = redis.url
            shared = {"postgres": True, "redis_url": url}
        with Site(tmp, webs=1, workers=1, long_workers=1, worker_threads=4, env=env, **shared) as site:
            print(f"setup {args.setup}: making {args.matches} finished matches for A ...", flush=True)
            made = site.shell(SETUP % {"matches": args.matches}, timeout=1800)
            mats = [made["mats"][n % len(made["mats"])] + "\n" * (n // len(made["mats"]))
                    for n in range(args.files)]  # different files (a different digest each)
            http = Http(site.url(0), site.sessions(["flooder"])["flooder"])

            before = asyncio.run(one_match(site, "b_before", "beginner", args.length))
            print(f"B before the flood: {summary(before)}", flush=True)

            stop, counts, passes = threading.Event(), Counter(), []
            started = time.time()
            flooder = threading.Thread(target=flood, args=(http, made["matches"], mats, stop, counts, passes))
            flooder.start()
            during = asyncio.run(one_match(site, "b_during", "beginner", args.length))
            stop.set()
            flooder.join(120)
            ended = time.time()
            print(f"B during the flood: {summary(during)}", flush=True)
            from datetime import datetime, timezone
            ticks = site.shell(TICKS % datetime.fromtimestamp(started, timezone.utc).isoformat())
            ticks = [t for t in ticks if t <= ended]
            gaps = [b - a for a, b in zip(ticks, ticks[1:])]
            print(f"ticks during the flood ({ended - started:.0f} s): {len(ticks)}, intervals: "
                  f"max {max(gaps) if gaps else float('nan'):.2f} s, median "
                  f"{statistics.median(gaps) if gaps else float('nan'):.2f} s, over 10 s: "
                  f"{sum(g > 10 for g in gaps)}", flush=True)
            print(f"A's requests ({len(passes)} passes): " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
            print(f"jobs: {site.shell(JOBS)}", flush=True)

            own = site.shell(OWN_MATCH)
            ending = site.shell(ENDING_AT_ONCE)
            owner = Http(site.url(0), site.sessions(["owner"])["owner"])
            asked = time.time()
            status, page = owner.post(f"/matches/{own['match']}/analysis/", {"depth": "1"})
            deadline = asked + 120
            state = {"started": None}
            while time.time() < deadline and state["started"] is None:
                state = site.shell(OWN_STARTED)
            waited = state["started"] - asked if state["started"] else None
            print(f"{ending['auto']} automatic analyses queued at once; the owner's own request "
                  f"({refusal_code(status, page)}) started after "
                  f"{'%.2f s' % waited if waited is not None else 'more than 120 s'}", flush=True)
            return {"before": before, "during": during, "gaps": gaps, "counts": dict(counts), "own_wait": waited}
    finally:
        if redis is not None:
            redis.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", default="embedded", choices=["embedded", "redis"])
    parser.add_argument("--matches", type=int, default=20, help="A's finished matches, each asked for at depth 3")
    parser.add_argument("--files", type=int, default=20, help="A's .mat uploads at depth 3")
    parser.add_argument("--length", type=int, default=3, help="B's match length (at least 20 replies)")
    args = parser.parse_args()
    result = run(args, Path(tempfile.mkdtemp(prefix="flood-")))
    during = sorted(result["during"])
    ok = (bool(during) and statistics.median(during) < 0.5
          and during[min(len(during) - 1, int(0.95 * len(during)))] < 1.0
          and all(g <= 10 for g in result["gaps"])
          and any(k.endswith(("too_many_jobs", "upload_limit")) for k in result["counts"])
          and result["own_wait"] is not None and result["own_wait"] < 5)
    print(json.dumps({"targets_met": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
