"""Shared fixtures. Service checks live in tests/support.py (import them from there)."""
import pytest

from tests.support import require_chromium, require_postgres, require_redis


@pytest.fixture
def postgres_url():
    """URL of a reachable PostgreSQL server (skips, or fails under CI=true)."""
    return require_postgres()


@pytest.fixture
def redis_url():
    """URL of a reachable Redis server (skips, or fails under CI=true)."""
    return require_redis()


@pytest.fixture
def chromium_path():
    """Path of the Chromium executable (skips, or fails under CI=true)."""
    return require_chromium()


@pytest.fixture(autouse=True)
def _fresh_house_bot_cache():
    """The bot runner remembers which games have a house bot; test databases reuse ids."""
    from games.bots import runner

    runner._bot_games.clear()
    yield
    runner._bot_games.clear()
