"""Browser benchmark: first paint of the game board on loopback, and the game page's weight.

    .venv/bin/python bench/browser_bench.py [--runs 5]

Starts Daphne as the site runs it (``backgammon_site.serve``, with its flags) on a fresh SQLite
file, creates two players and a started match through the services, then loads
``/games/<id>/`` in Debian's Chromium (Playwright, no download) and measures, from navigation
start, the time until the board's SVG holds its checkers (targets: under 1 s on loopback; the
page's own JS+CSS under 100 KB uncompressed).
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.live import DAPHNE_FLAGS  # noqa: E402
from tests.support import free_port  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GAME_ASSETS = ["static/js/game.mjs", "static/js/state.mjs", "static/js/board.mjs", "static/css/game.css"]


def setup_match(env):
    code = ("from games import services;"
            "a=services.player_register(username='benchw', password='bench pass 1234');"
            "b=services.player_register(username='benchb', password='bench pass 1234');"
            "m=services.match_create(creator=a, length=5);"
            "m=services.match_join(player=b, match_id=m.pk);"
            "print(m.games.get().pk)")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    own = sum((ROOT / p).stat().st_size for p in GAME_ASSETS) + (ROOT / "static/css/site.css").stat().st_size
    print(f"game page JS+CSS: {own / 1024:.1f} KB uncompressed "
          f"({', '.join(f'{Path(p).name} {(ROOT / p).stat().st_size / 1024:.1f}' for p in GAME_ASSETS)}, "
          f"site.css {(ROOT / 'static/css/site.css').stat().st_size / 1024:.1f}) target < 100 KB")
    tmp = tempfile.mkdtemp()
    env = {**os.environ, "SQLITE_PATH": str(Path(tmp) / "bench.sqlite3"), "DJANGO_DEBUG": "1",
           "GAMES_SWEEP_INTERVAL": "0", "DJANGO_LOG_LEVEL": "WARNING"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    game_id = setup_match(env)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "backgammon_site.serve", "-b", "127.0.0.1", "-p", str(port),
                             *DAPHNE_FLAGS, "backgammon_site.asgi:application"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("daphne did not start")
                time.sleep(0.05)
        from playwright.sync_api import sync_playwright

        path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            times, transferred = [], None
            for run in range(args.runs + 1):  # the first run warms Daphne and the disk cache up
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                sizes = []
                page.on("response", lambda r: sizes.append((r.url, len(r.body()) if r.ok else 0)))
                page.goto(f"http://127.0.0.1:{port}/games/{game_id}/")
                page.wait_for_function("() => document.querySelectorAll('#board .checker').length >= 30")
                ms = page.evaluate("""() => new Promise(done => requestAnimationFrame(() =>
                    done(performance.now())))""")
                fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
                if run:
                    times.append(ms)
                    transferred = sum(n for url, n in sizes if "/static/" in url and ("game" in url or "state" in url or "board" in url or "site.css" in url))
                    print(f"run {run}: board painted at {ms:.0f} ms (first contentful paint {fcp and round(fcp)} ms)")
                context.close()
            browser.close()
        print(f"first paint of the board: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms "
              f"over {len(times)} loads (target < 1000 ms)")
        print(f"game page's own JS+CSS fetched: {transferred / 1024:.1f} KB")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
