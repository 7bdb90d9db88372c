"""A live Daphne server and Chromium for the browser tests.

The server runs the real site (Daphne, websockets, the in-memory channel layer) on a file
SQLite database in a temporary folder, with ``DJANGO_DEBUG=1``, no sweeper, and scripted
dice (tests/browser/dice.py). Chromium is Debian's, driven by Playwright; nothing is
downloaded. Screenshots go to ``artifacts/screenshots/``.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.live import DAPHNE_FLAGS
from tests.support import free_port, require_chromium

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STARTUP_TIMEOUT = 30  # seconds, polled


def _wait_for_port(port, proc, timeout=STARTUP_TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)  # a bounded poll for the port, not a timing assumption
    raise RuntimeError(f"daphne did not listen on {port} within {timeout} s")


@pytest.fixture(scope="session")
def site_server(tmp_path_factory):
    """``(base_url, dice_script_path)`` of a Daphne server running the site as it runs
    (``backgammon_site.serve``, with its websocket limits)."""
    require_chromium()
    tmp = tmp_path_factory.mktemp("live")
    script = tmp / "dice.json"
    script.write_text("{}")
    env = {**os.environ, "SQLITE_PATH": str(tmp / "db.sqlite3"), "DJANGO_DEBUG": "1", "GAMES_SWEEP_INTERVAL": "0",
           "GAMES_DICE_SOURCE": "tests.browser.dice.scripted_dice", "GAMES_DICE_SCRIPT": str(script),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONPATH": str(ROOT), "GAMES_NEXT_GAME_DELAY": "4",
           "GAMES_SIGNUP_LIMIT": "10000"}  # every test signs up from 127.0.0.1
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    log = open(tmp / "daphne.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "backgammon_site.serve", "-b", "127.0.0.1", "-p", str(port),
                             *DAPHNE_FLAGS, "backgammon_site.asgi:application"],  # as `make run` serves it
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}", script
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="package")  # torn down after tests/browser: its loop would stay running
def browser():
    path = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """``new_page(viewport=DESKTOP)``: a page in a fresh context (its own cookies)."""
    contexts = []

    def make(viewport=None):
        context = browser.new_context(viewport=viewport or DESKTOP)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
