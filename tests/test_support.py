"""Tests for the real-service helpers in tests/support.py."""
import pytest

from tests import support
from tests.support import free_port, require_chromium, require_postgres, require_redis

Skipped = pytest.skip.Exception
Failed = pytest.fail.Exception


@pytest.fixture
def closed_services(monkeypatch, tmp_path):
    """Point every helper at something that is not there."""
    port = free_port()
    monkeypatch.setenv("TEST_DATABASE_URL", f"postgres://postgres@127.0.0.1:{port}/postgres")
    monkeypatch.setenv("TEST_REDIS_URL", f"redis://127.0.0.1:{port}/15")
    monkeypatch.setenv("CHROMIUM_PATH", str(tmp_path / "no-such-chromium"))
    return port


@pytest.mark.parametrize(
    ("check", "names"),
    [
        (require_postgres, ["PostgreSQL", "TEST_DATABASE_URL"]),
        (require_redis, ["Redis", "TEST_REDIS_URL"]),
        (require_chromium, ["Chromium", "CHROMIUM_PATH"]),
    ],
)
def test_missing_service_skips_outside_ci(closed_services, monkeypatch, check, names):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped) as info:
        check()
    message = str(info.value)
    for name in names:
        assert name in message
    assert "set " in message  # says how to provide it


@pytest.mark.parametrize(
    ("check", "name"),
    [(require_postgres, "PostgreSQL"), (require_redis, "Redis"), (require_chromium, "Chromium")],
)
def test_missing_service_fails_in_ci(closed_services, monkeypatch, check, name):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed) as info:
        check()
    assert name in str(info.value)
    assert "CI=true" in str(info.value)


@pytest.mark.parametrize("value", ["", "false", "0"])
def test_ci_other_values_still_skip(closed_services, monkeypatch, value):
    monkeypatch.setenv("CI", value)
    with pytest.raises(Skipped):
        require_redis()


def test_postgres_check_gives_up_quickly(closed_services, monkeypatch):
    """A closed port is refused at once; the 3 s timeout bounds a silent host."""
    monkeypatch.delenv("CI", raising=False)
    assert support.CONNECT_TIMEOUT == 3
    with pytest.raises(Skipped):
        require_postgres()


def test_chromium_path_from_env(monkeypatch, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROMIUM_PATH", str(fake))
    assert require_chromium() == str(fake)


@pytest.mark.postgres
def test_real_postgres_answers(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, connect_timeout=3) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.redis
def test_real_redis_answers(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    try:
        assert client.ping() is True
    finally:
        client.close()


def test_message_hides_password(monkeypatch):
    port = free_port()
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TEST_DATABASE_URL", f"postgres://u:s3cret@127.0.0.1:{port}/db")
    with pytest.raises(Skipped) as info:
        require_postgres()
    assert "s3cret" not in str(info.value)
    assert f"postgres://u:***@127.0.0.1:{port}/db" in str(info.value)
