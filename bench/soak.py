"""The soak: the site kept busy for a given time, its processes sampled, growth reported.

    .venv/bin/python bench/soak.py --minutes 60                       # the embedded default
    .venv/bin/python bench/soak.py --minutes 60 --setup pg            # PostgreSQL + Redis, two webs
    .venv/bin/python bench/soak.py --minutes 2 --check                # the short variant (CI)

``embedded`` is the site as ``make run`` serves it (one web process, one worker, SQLite, no
Redis); ``pg`` is two web processes and a worker on a fresh PostgreSQL database and a Redis of
the bench's own (``--redis-port``). The load (``bench/soak_load.py``): bot-API agents long-polling
against a house bot (1-point matches back to back), members' tables where a new guest takes
the seat and plays over the websocket with a spectator watching, the automatic analysis of
every finished match, and a probe of one page a second per web process.

Every ``--every`` seconds it samples each process: open files, threads, resident memory,
connections to the database (handles on the SQLite files; sockets to PostgreSQL) and to Redis,
and ``pg_stat_activity``'s count for the site's database. It prints the first and last sample
after warm-up (the first fifth of the run) and the growth per hour of each line (a least-squares
slope over the samples after warm-up), the request latency (p50/p95/max), 5xx answers, the
long-poll wake-ups (from the change's time in the event log to the poll's answer: p50/p99/max)
and the house bot's reply time in the first and the last fifth of the run.

``--check`` exits 1 when a line grows: open files, database or Redis connections or threads by
more than 5% (and more than a few: a handful of pooled connections may open late), memory by more
than ``--max-memory-growth`` (default 25%: a short run's memory is still settling), any 5xx, any
client failure, or a long-poll woken later than 1 s (p99) after its change.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.soak_load import Agent, Load, probe, table  # noqa: E402
from tests.live import RedisServer, Site  # noqa: E402

SOAK_ENV = {"GAMES_ANALYSIS_AUTO": "1", "GAMES_API_RATE_LIMIT": "100000", "DJANGO_LOG_LEVEL": "WARNING"}
SLACK = {"files": 12, "db": 4, "redis": 4, "threads": 4}  # absolute growth always allowed (pools filling)

SETUP = r"""
import json
from games import services
tables, per_table, run = %d, %d, %r
out = []
for t in range(tables):
    host = services.player_register(username=f"{run}h{t}", password=None)
    services.player_register(username=f"{run}s{t}", password=None)
    out.append([{"match": m.pk, "invite": m.invite_code}
                for m in (services.match_create(creator=host, length=1) for _ in range(per_table))])
print("RESULT " + json.dumps(out))
"""

EVENTS = r"""
import json
from games.models import GameEvent
rows = GameEvent.objects.filter(game__match_id__in=json.loads(%r)).values_list(
    "game__match_id", "game__number", "version", "created_at", "actor__is_bot").order_by("game_id", "version")
print("RESULT " + json.dumps([[m, n, v, t.timestamp(), bool(b)] for m, n, v, t, b in rows]))
"""


# -- sampling ----------------------------------------------------------------------------------------


def tcp_inodes(port: int) -> set:
    """Socket inodes of this machine's TCP connections to ``port`` (IPv4 and IPv6)."""
    inodes = set()
    for table_path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table_path).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if int(cols[2].rsplit(":", 1)[1], 16) == port and cols[3] == "01":  # ESTABLISHED
                inodes.add(cols[9])
    return inodes


def process_sample(pid: int, sqlite: str, pg_inodes: set, redis_inodes: set) -> dict:
    files = db = redis = 0
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        files += 1
        if target.startswith("socket:["):
            inode = target[8:-1]
            db += inode in pg_inodes
            redis += inode in redis_inodes
        elif sqlite and target.startswith(sqlite):
            db += 1
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {"files": files, "db": db, "redis": redis, "threads": int(status["Threads"]),
            "rss_mb": int(status["VmRSS"].split()[0]) / 1024}


class Sampler(threading.Thread):
    def __init__(self, site: Site, every: float, redis_port: int | None):
        super().__init__(daemon=True)
        self.site, self.every, self.redis_port = site, every, redis_port
        self.samples = []  # (monotonic, {process name: sample}, pg_stat_activity count)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.every):
            self.samples.append(self.sample())

    def sample(self):
        pg = tcp_inodes(5432) if self.site.pg_db else set()
        redis = tcp_inodes(self.redis_port) if self.redis_port else set()
        sqlite = "" if self.site.pg_db else str(self.site.tmp / "db.sqlite3")
        procs = {}
        for proc in self.site.webs + self.site.workers:
            if proc.alive():
                procs[proc.name] = process_sample(proc.popen.pid, sqlite, pg, redis)
        return time.monotonic(), procs, pg_activity(self.site.pg_db) if self.site.pg_db else None


def pg_activity(database: str) -> int:
    import psycopg

    from tests.live import PG_ADMIN

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (database,)).fetchone()[0]


# -- figures -----------------------------------------------------------------------------------------


def slope_per_hour(points: list) -> float:
    """Least-squares slope of ``(seconds, value)`` points, per hour."""
    if len(points) < 2:
        return 0.0
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if den == 0 else sum((x - mx) * (y - my) for x, y in points) / den * 3600


def growth(samples: list, warmup: float) -> dict:
    """Per process and line: first and last value after warm-up, growth over the run, per hour."""
    if not samples:
        return {}
    t0 = samples[0][0]
    kept = [s for s in samples if s[0] - t0 >= warmup] or samples[-2:]
    out = {}
    names = sorted({name for _, procs, _ in kept for name in procs})
    lines = ["files", "db", "redis", "threads", "rss_mb"]
    for name in names:
        series = [(t, procs[name]) for t, procs, _ in kept if name in procs]
        for line in lines:
            points = [(t - t0, s[line]) for t, s in series]
            out[(name, line)] = {"first": points[0][1], "last": points[-1][1],
                                 "max": max(v for _, v in points), "per_hour": slope_per_hour(points),
                                 "seconds": points[-1][0] - points[0][0]}
    pg = [(t - t0, n) for t, _, n in kept if n is not None]
    if pg:
        out[("postgres", "db")] = {"first": pg[0][1], "last": pg[-1][1], "max": max(n for _, n in pg),
                                   "per_hour": slope_per_hour(pg), "seconds": pg[-1][0] - pg[0][0]}
    return out


def grew(line: str, g: dict, max_memory: float) -> bool:
    """Whether a line grew past what the check allows (see the module's doc): the rise of its
    fitted line over the run, so a moment of many requests at once (each holding its files for
    its length) is not a leak, and a steady rise of one file per request is."""
    rise = g["per_hour"] * g["seconds"] / 3600
    if line == "rss_mb":
        return rise > g["first"] * max_memory
    return rise > max(SLACK[line], 0.05 * g["first"])


def pct(values: list, p: float):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def wakeups(polls: list, events: list) -> list:
    """Seconds from the change a poll waited for to the poll's answer (changed polls only)."""
    created = {(m, n, v): t for m, n, v, t, _ in events}
    out = []
    for match, number, version, started, returned, changed in polls:
        at = created.get((match, number, version + 1))
        if changed and at is not None:
            out.append(max(0.0, returned - max(at, started)))
    return out


def bot_replies(events: list) -> list:
    """``(time, seconds)``: each house-bot action that follows an action of the other side."""
    out, last = [], None
    for m, n, v, t, is_bot in events:
        if last is not None and last[:2] == (m, n) and is_bot and not last[4]:
            out.append((t, t - last[3]))
        last = (m, n, v, t, is_bot)
    return out


# -- the run ------------------------------------------------------------------------------------------


def soak(setup: str, *, minutes: float, agents: int, tables: int, level: str, every: float,
         redis_port: int, tmp: Path, env: dict | None = None) -> dict:
    seconds = minutes * 60
    tmp.mkdir(parents=True, exist_ok=True)
    redis = RedisServer(redis_port, tmp) if setup == "pg" else None
    if redis:
        redis.start()
    site = Site(tmp, webs=2 if setup == "pg" else 1, workers=1, postgres=setup == "pg",
                redis_url=redis.url if redis else None, env={**SOAK_ENV, **(env or {})}, worker_threads=2)
    try:
        with site:
            run = f"k{int(time.time()) % 100000}"
            prepared = site.shell(SETUP % (tables, max(4, int(minutes * 3)), run))
            cookies = site.sessions([f"{run}{k}{t}" for t in range(tables) for k in ("h", "s")])
            load, stop = Load(), threading.Event()
            sampler = Sampler(site, every, redis_port if redis else None)
            sampler.start()
            started = time.time()
            threads = [threading.Thread(target=probe, args=(site, load, stop), daemon=True)]
            agent_objs = [Agent(site, load, f"{run}a{i}", level, i % len(site.webs)) for i in range(agents)]
            threads += [threading.Thread(target=guard, args=(load, a.run, stop), daemon=True) for a in agent_objs]
            threads.append(threading.Thread(target=guard, daemon=True, args=(load, lambda s: run_tables(
                site, load, prepared, cookies, run, s), stop)))
            for thread in threads:
                thread.start()
            stop.wait(seconds)
            stop.set()
            for thread in threads:
                thread.join(timeout=120)
            sampler.stop.set()
            sampler.join()
            match_ids = sorted({p[0] for p in load.polls} | {m["match"] for t in prepared for m in t})
            events = site.shell(EVENTS % json.dumps(match_ids))
            tracebacks = server_tracebacks(site)
    finally:
        if redis:
            redis.stop()
    return {"setup": setup, "seconds": time.time() - started, "load": load, "samples": sampler.samples,
            "events": events, "started": started, "tracebacks": tracebacks}


def server_tracebacks(site: Site) -> list:
    """``"<process>: <traceback>"`` for each traceback in the processes' logs."""
    found = []
    for proc in site.webs + site.workers:
        text = proc.log.read_text(errors="replace") if proc.log.exists() else ""
        for block in text.split("Traceback (most recent call last):")[1:]:
            found.append(f"{proc.name}: {block.strip()[-1200:]}")
    return found


def guard(load: Load, target, stop: threading.Event) -> None:
    try:
        target(stop)
    except Exception as exc:  # noqa: BLE001 - a client's failure is a finding, printed at the end
        with load.lock:
            load.errors.append(repr(exc)[:500])


def run_tables(site: Site, load: Load, prepared: list, cookies: dict, run: str, stop: threading.Event) -> None:
    async def all_tables():
        await asyncio.gather(*(table(site, load, matches, cookies[f"{run}h{t}"], cookies[f"{run}s{t}"],
                                     t % len(site.webs), stop) for t, matches in enumerate(prepared)))

    loop = asyncio.new_event_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=16))
    try:
        loop.run_until_complete(all_tables())
    finally:
        loop.close()


# -- the report ----------------------------------------------------------------------------------------


def report(result: dict, *, warmup_share: float, max_memory: float) -> list:
    """Print the figures; return the list of failed checks."""
    seconds, load = result["seconds"], result["load"]
    failures = []
    print(f"\n== soak: {result['setup']}, {seconds / 60:.1f} min, {load.matches['agents']} agent matches, "
          f"{load.matches['tables']} websocket matches with a guest and a spectator")
    table_growth = growth(result["samples"], warmup=seconds * warmup_share)
    print(f"{'process':10} {'line':8} {'first':>8} {'last':>8} {'max':>8} {'per hour':>10}")
    for (name, line), g in sorted(table_growth.items()):
        bad = name != "postgres" and grew(line, g, max_memory)
        print(f"{name:10} {line:8} {g['first']:8.1f} {g['last']:8.1f} {g['max']:8.1f} {g['per_hour']:+10.1f}"
              f"{'  GREW' if bad else ''}")
        if bad:
            failures.append(f"{name} {line} grew from {g['first']:.0f} to {g['last']:.0f} (max {g['max']:.0f})")
    statuses = [s for _, s, _ in load.http]
    latency = [d * 1000 for _, s, d in load.http if s < 500]
    errors5 = sum(1 for s in statuses if s >= 500)
    print(f"requests: {len(statuses)}, 5xx or no answer: {errors5}; latency p50 {pct(latency, 50):.0f} ms, "
          f"p95 {pct(latency, 95):.0f} ms, max {max(latency):.0f} ms (long polls included)")
    wakes = wakeups(load.polls, result["events"])
    if wakes:
        print(f"long polls: {len(load.polls)}, woken by a change {len(wakes)}; wake-up p50 "
              f"{pct(wakes, 50) * 1000:.0f} ms, p99 {pct(wakes, 99) * 1000:.0f} ms, max {max(wakes) * 1000:.0f} ms")
    replies = bot_replies(result["events"])
    if replies:
        t0, t1 = result["started"], result["started"] + seconds
        first = [d for t, d in replies if t < t0 + seconds / 5]
        last = [d for t, d in replies if t > t1 - seconds / 5]
        print(f"house bot reply: first fifth median {fmt(pct(first, 50))} (p95 {fmt(pct(first, 95))}, n {len(first)}), "
              f"last fifth median {fmt(pct(last, 50))} (p95 {fmt(pct(last, 95))}, n {len(last)})")
    for error in load.errors:
        print(f"client failure: {error}")
    for trace in result["tracebacks"][:3]:
        print(f"server traceback in {trace}")
    if errors5:
        failures.append(f"{errors5} answers were 5xx or none")
    if result["tracebacks"]:
        failures.append(f"{len(result['tracebacks'])} tracebacks in the servers' logs")
    if load.errors:
        failures.append(f"{len(load.errors)} client failures")
    if wakes and pct(wakes, 99) > 1.0:
        failures.append(f"long-poll wake-up p99 {pct(wakes, 99):.2f} s")
    if not load.matches["agents"] or not load.matches["tables"]:
        failures.append("no match was finished by the agents or at the tables")
    return failures


def fmt(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("embedded", "pg"), default="embedded")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--agents", type=int, default=4, help="bot-API agents, each against a house bot")
    parser.add_argument("--tables", type=int, default=2, help="websocket tables (member, guest, spectator)")
    parser.add_argument("--level", default="beginner", help="the house bot the agents play")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=0.2, help="share of the run left out of the growth")
    parser.add_argument("--max-memory-growth", type=float, default=0.25)
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT", "6392")))
    parser.add_argument("--check", action="store_true", help="exit 1 when a line grows (see above)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="soak-"))
    result = soak(args.setup, minutes=args.minutes, agents=args.agents, tables=args.tables, level=args.level,
                  every=args.every, redis_port=args.redis_port, tmp=tmp)
    failures = report(result, warmup_share=args.warmup, max_memory=args.max_memory_growth)
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
