"""The site skeleton: home page, settings driven by the environment, deploy checks."""
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Everything settings.py reads; cleared so the machine's environment can't leak in.
SETTINGS_ENV = [
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DJANGO_SECURE_SSL_REDIRECT",
    "DATABASE_URL",
    "SQLITE_PATH",
    "REDIS_URL",
]


def run_django(args, **env):
    """Run `manage.py ...` or `python -c ...` in a fresh process with the given env."""
    full_env = {k: v for k, v in os.environ.items() if k not in SETTINGS_ENV}
    full_env["DJANGO_SETTINGS_MODULE"] = "backgammon_site.settings"
    full_env.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def print_setting(expr, **env):
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({expr}, default=str))"
    )
    result = run_django(["-c", code], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_env(**extra):
    env = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "example.com",
    }
    env.update(extra)
    return env


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Backgammon" in response.content
    assert b"css/site.css" in response.content


def test_deploy_check_is_clean_with_production_settings():
    result = run_django(["manage.py", "check", "--deploy"], **production_env())
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output, output
    assert "no issues" in output


def test_deploy_check_is_clean_with_ssl_redirect_off_behind_a_proxy():
    env = production_env(DJANGO_SECURE_SSL_REDIRECT="0")
    result = run_django(["manage.py", "check", "--deploy"], **env)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output, output
    assert print_setting("settings.SECURE_SSL_REDIRECT", **env) is False


def test_production_refuses_to_start_without_secret_key():
    result = run_django(["manage.py", "check"], DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="example.com")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_debug_default_has_dev_key_and_local_hosts():
    values = print_setting("[settings.DEBUG, bool(settings.SECRET_KEY), settings.ALLOWED_HOSTS]")
    assert values == [True, True, ["127.0.0.1", "localhost", "testserver"]]


def test_allowed_hosts_and_csrf_origins_from_env():
    values = print_setting(
        "[settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS]",
        DJANGO_ALLOWED_HOSTS="a.example, b.example",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://a.example",
    )
    assert values == [["a.example", "b.example", "testserver"], ["https://a.example"]]


def test_the_embedded_layer_by_default_with_a_bus_beside_the_database(tmp_path):
    layers = print_setting("settings.CHANNEL_LAYERS", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert layers["default"]["BACKEND"] == "games.realtime.layer.FanoutLayer"
    assert layers["default"]["CONFIG"]["bus"] == f"unix:{tmp_path / 'db.sqlite3'}.bus"
    assert layers["default"]["CONFIG"]["capacity"] > 100


def test_redis_url_switches_the_bus_and_the_task_queue():
    layers, huey = print_setting("[settings.CHANNEL_LAYERS, settings.HUEY]", REDIS_URL="redis://127.0.0.1:6379/3")
    assert layers["default"]["BACKEND"] == "games.realtime.layer.FanoutLayer"
    assert layers["default"]["CONFIG"]["bus"] == "redis://127.0.0.1:6379/3"
    assert huey["huey_class"] == "huey.PriorityRedisHuey" and huey["connection"]["url"] == "redis://127.0.0.1:6379/3"
    assert print_setting("settings.HUEY['huey_class']") == "huey.SqliteHuey"


def test_sqlite_by_default_and_sqlite_path_override(tmp_path):
    db = print_setting("settings.DATABASES['default']")
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(ROOT / "db.sqlite3")
    custom = tmp_path / "other.sqlite3"
    db = print_setting("settings.DATABASES['default']", SQLITE_PATH=str(custom))
    assert db["NAME"] == str(custom)


def test_database_url_switches_to_postgres():
    db = print_setting(
        "settings.DATABASES['default']",
        DATABASE_URL="postgres://someone:pw@db.invalid:5432/backgammon",
    )
    assert db["ENGINE"] == "backgammon_site.pg"  # Django's, with a pool check of no round trip
    assert db["NAME"] == "backgammon"
    assert db["HOST"] == "db.invalid"
    # No connection kept per thread (ASGI): a bounded pool per process instead.
    assert db["CONN_MAX_AGE"] == 0
    assert db["OPTIONS"]["pool"]["max_size"] == 12


def test_sockets_database_calls_run_in_the_loop_on_a_sqlite_file_only(tmp_path):
    """What a real process decides (games/db/calls.py): in the loop on a SQLite file, not on
    PostgreSQL, nor when turned off."""
    expr = "__import__('games.db.calls', fromlist=['in_loop']).in_loop()"
    assert print_setting(expr, SQLITE_PATH=str(tmp_path / "db.sqlite3")) is True
    assert print_setting(expr, SQLITE_PATH=str(tmp_path / "db.sqlite3"), GAMES_DB_IN_LOOP="0") is False
    assert print_setting(expr, DATABASE_URL="postgres://someone:pw@db.invalid:5432/backgammon") is False


def test_sockets_database_calls_have_a_thread_of_their_own_on_postgresql_only(tmp_path):
    """PostgreSQL: GAMES_DB_THREADS threads of the process's own (2 by default); SQLite: none."""
    expr = "__import__('games.db.calls', fromlist=['threads']).threads()"
    pg = "postgres://someone:pw@db.invalid:5432/backgammon"
    assert print_setting(expr, DATABASE_URL=pg) == 2
    assert print_setting(expr, DATABASE_URL=pg, GAMES_DB_THREADS="3") == 3
    assert print_setting(expr, SQLITE_PATH=str(tmp_path / "db.sqlite3"), GAMES_DB_IN_LOOP="0") == 0


def test_pool_size_from_env():
    db = print_setting("settings.DATABASES['default']['OPTIONS']['pool']['max_size']",
                       DATABASE_URL="postgres://someone:pw@db.invalid:5432/backgammon", DJANGO_DB_POOL_SIZE="3")
    assert db == 3


def test_asgi_application_routes_http_and_websocket():
    result = run_django(
        [
            "-c",
            "from backgammon_site.asgi import application; "
            "print(sorted(application.application_mapping))",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "['http', 'websocket']" in result.stdout
