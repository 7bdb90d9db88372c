"""The PostgreSQL pass of `make test`: the service and bot API tests again, on PostgreSQL.

SQLite is the default test database; the tests that need real row locks
(marked ``postgres``, anywhere) and the rest of tests/services and tests/api run here
with DATABASE_URL=TEST_DATABASE_URL (the bot API's views give their connection back to
the pool after each read, which an in-memory SQLite database never sees). Without a
reachable server this pass is skipped with a message, except under CI=true, where it fails.
"""

import os
import subprocess
import sys

from tests.support import DEFAULT_TEST_DATABASE_URL, in_ci


def main() -> int:
    url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001
        message = f"PostgreSQL is not reachable at TEST_DATABASE_URL ({type(exc).__name__}: {exc})"
        if in_ci():
            print(f"FAILED: {message} (CI=true: the PostgreSQL pass must run)", file=sys.stderr)
            return 1
        print(f"SKIPPED the PostgreSQL pass: {message}; start PostgreSQL or set TEST_DATABASE_URL")
        return 0
    env = dict(os.environ, DATABASE_URL=url)
    runs = [
        ["tests/services", "tests/api"],  # the whole write path and the bot API again, on the real database
        ["tests", "-m", "postgres", "--ignore=tests/services", "--ignore=tests/api"],  # row-lock races elsewhere
    ]
    worst = 0
    for run in runs:
        args = [sys.executable, "-m", "pytest", *run, *sys.argv[1:]]
        print("PostgreSQL pass:", " ".join(args[2:]), flush=True)
        worst = max(worst, subprocess.call(args, env=env))
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
