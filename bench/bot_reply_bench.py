"""How long a player waits for a house bot's reply, through the real processes.

    .venv/bin/python bench/bot_reply_bench.py                 # both setups, 3 matches each
    .venv/bin/python bench/bot_reply_bench.py --setups embedded --matches 5 --level beginner

For each setup it starts one Daphne process and one worker (``manage.py run_huey``):

* ``embedded``: a SQLite file, the SQLite task queue and the Unix-datagram bus (``make run``);
* ``redis``: PostgreSQL (``TEST_DATABASE_URL``'s server, a fresh database) and a Redis of its
  own (a free port, or ``BENCH_REDIS_URL``) for the task queue and the channel layer.

A websocket player (``tests.live.GameClient``, as the browser behaves) plays matches against
a house bot at ``--level``. For every checker play the player sends, the reply time is from
the moment it was sent to the moment the bot's next decision (its play, or a double) arrived
on the player's socket: the player's own event, the bot's automatic roll, the task queue, the
bot's decision and the fan-out back. It prints the median, p90 and max per setup; the target
(issue 11) is a median under 0.5 s at the beginner level.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live import GameClient, RedisServer, Site, play_until_over  # noqa: E402
from tests.support import free_port  # noqa: E402

VS_BOT = """
import json
from games import services
human = services.player_register(username=%(name)r, password=None)
match = services.match_vs_bot(player=human, level=%(level)r, length=%(length)d)
print("RESULT " + json.dumps({"match": match.pk, "game": match.games.get().pk}))
"""

BOT_DECISIONS = ("move", "double", "resign")


def reply_times(client: GameClient, sent: list) -> list:
    """Seconds from each play the player sent to the bot's next decision on the socket."""
    times = []
    for at, key in sent:
        for received_at, m in client.received:
            if received_at < at or m.get("t") not in BOT_DECISIONS:
                continue
            if (m.get("game"), m.get("v", 0)) <= key:
                continue
            if (m.get("d") or {}).get("color") == "black":
                times.append(received_at - at)
                break
    return times


async def one_match(site: Site, name: str, level: str, length: int) -> list:
    ids = site.shell(VS_BOT % {"name": name, "level": level, "length": length})
    cookie = site.sessions([name])[name]
    client = GameClient(site.url(0, "ws"), ids["game"], cookie, site.url(0), color="white")
    await client.connect()
    stop = asyncio.Event()
    runner = asyncio.create_task(client.run(stop))
    sent = []

    def on_act(key, kind):
        if kind == "move":
            sent.append((time.time(), key))

    try:
        await play_until_over(client, stop, timeout=600, think=(0.3, 0.6), on_act=on_act)
    finally:
        stop.set()
        await client.ws.close()
        await asyncio.wait_for(runner, 10)
    return reply_times(client, sent)


def run_setup(setup: str, *, matches: int, level: str, length: int, tmp: Path) -> list:
    tmp.mkdir(parents=True, exist_ok=True)
    redis = None
    try:
        if setup == "redis":
            redis_url = os.environ.get("BENCH_REDIS_URL")
            if not redis_url:
                redis = RedisServer(free_port(), tmp)
                redis.start()
                redis_url = redis.url
            site = Site(tmp, webs=1, workers=1, postgres=True, redis_url=redis_url)
        else:
            site = Site(tmp, webs=1, workers=1)
        with site:
            times = []
            for i in range(matches):
                times += asyncio.run(one_match(site, f"player{i}", level, length))
            return times
    finally:
        if redis is not None:
            redis.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setups", default="embedded,redis")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--length", type=int, default=1)
    parser.add_argument("--level", default="beginner")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bot-reply-"))
    print(f"| setup | level | replies | median s | p90 s | max s | median < 0.5 s |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for setup in [s for s in args.setups.split(",") if s]:
        times = sorted(run_setup(setup, matches=args.matches, level=args.level, length=args.length, tmp=tmp / setup))
        if not times:
            print(f"| {setup} | {args.level} | 0 | - | - | - | no replies measured |")
            ok = False
            continue
        median = statistics.median(times)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        ok = ok and median < 0.5
        print(f"| {setup} | {args.level} | {len(times)} | {median:.3f} | {p90:.3f} | {times[-1]:.3f} "
              f"| {'yes' if median < 0.5 else 'NO'} |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
