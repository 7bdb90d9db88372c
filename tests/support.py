"""Helpers for tests that need real services (PostgreSQL, Redis, Chromium).

Call one at the top of a test or fixture::

    from tests.support import require_postgres

    def test_something():
        url = require_postgres()

When the service is missing the test is skipped, with a message that says what is
missing and how to provide it; under CI (env CI=true) it fails instead, so CI can never
go green by skipping what it was meant to test.
"""
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/15"
DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium"
CONNECT_TIMEOUT = 3  # seconds


def in_ci():
    return os.environ.get("CI", "").strip().lower() == "true"


def _describe(exc):
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"


def _redact(url):
    """The URL with any password replaced, for messages."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def _missing(what, how):
    """Skip the current test, or fail it under CI."""
    if in_ci():
        pytest.fail(f"{what} (CI=true, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(f"{what}; {how}")


def require_postgres():
    """Return TEST_DATABASE_URL if a PostgreSQL server answers there, else skip/fail."""
    url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
        _missing(
            f"PostgreSQL is not reachable at TEST_DATABASE_URL={_redact(url)} "
            f"({_describe(exc)})",
            "start PostgreSQL or set TEST_DATABASE_URL=postgres://user@host:port/dbname",
        )
    return url


def per_worker_redis(url: str) -> str:
    """The Redis database of this test process: under pytest-xdist (``make test`` runs two
    processes) worker N uses the database N below TEST_REDIS_URL's (15, 14, ...), so one
    worker's flush never empties another's keys."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return url
    base, _, db = url.rpartition("/")
    if not db.isdigit():
        return url
    return f"{base}/{(int(db) - int(worker[2:])) % 16}"


def require_redis():
    """Return TEST_REDIS_URL if a Redis server answers PING there, else skip/fail."""
    url = per_worker_redis(os.environ.get("TEST_REDIS_URL") or DEFAULT_TEST_REDIS_URL)
    try:
        import redis

        client = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001
        _missing(
            f"Redis is not reachable at TEST_REDIS_URL={_redact(url)} ({_describe(exc)})",
            "start redis-server or set TEST_REDIS_URL=redis://host:port/db",
        )
    return url


def require_chromium():
    """Return the path of a Chromium executable (CHROMIUM_PATH or /usr/bin/chromium)."""
    path = os.environ.get("CHROMIUM_PATH") or DEFAULT_CHROMIUM_PATH
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        _missing(
            f"Chromium executable not found at {path}",
            "install Debian's chromium package or set CHROMIUM_PATH to the executable",
        )
    return path


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def shared_dir():
    """The project's ``shared/`` folder, which sits beside the repository root
    (SHARED_DIR overrides). Skips when missing, fails under CI."""
    path = Path(os.environ.get("SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
    if not (path / "data" / "gnubg_positions.jsonl").is_file():
        _missing(
            f"the shared reference data is not at {path / 'data' / 'gnubg_positions.jsonl'}",
            "put the project's shared/ folder beside the repository or set SHARED_DIR",
        )
    return path


GNUBG_PATHS = ("/usr/games/gnubg", "/usr/bin/gnubg")


def require_gnubg():
    """Return the path of GNU Backgammon's ``gnubg`` (GNUBG_PATH, PATH, /usr/games), else skip/fail."""
    import shutil

    path = os.environ.get("GNUBG_PATH") or shutil.which("gnubg")
    if not path:
        path = next((p for p in GNUBG_PATHS if os.access(p, os.X_OK)), None)
    if not path or not (Path(path).is_file() and os.access(path, os.X_OK)):
        _missing(
            f"GNU Backgammon (gnubg) not found (GNUBG_PATH, PATH, {', '.join(GNUBG_PATHS)})",
            "install Debian's gnubg package or set GNUBG_PATH to the executable",
        )
    return path
