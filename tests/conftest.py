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


@pytest.fixture(scope="session", autouse=True)
def _in_process_layer_and_tasks():
    """Tests that run the site in this process: a channel layer with no bus (nothing leaves
    the process), and tasks run inline when queued (a house bot answers before the action
    that woke it returns; scheduled tasks wait in memory). Tests of real workers start
    their own processes with their own settings. The automatic analysis of finished
    matches is off (tests of it turn it on with the ``settings`` fixture)."""
    from channels.layers import channel_layers
    from django.conf import settings
    from huey.contrib.djhuey import HUEY

    from games.realtime.layer import FanoutLayer
    from games.tasks.long import LONG_HUEY

    channel_layers.set("default", FanoutLayer())
    previous = HUEY.immediate, LONG_HUEY.immediate
    HUEY.immediate = LONG_HUEY.immediate = True
    settings.GAMES_ANALYSIS_AUTO = False
    yield
    HUEY.immediate, LONG_HUEY.immediate = previous
    del settings.GAMES_ANALYSIS_AUTO


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the site's default language: one that activated another (or a
    request that did, in this thread) must not leave it to the next, whose order differs
    between runs and between the test processes."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Every test starts with empty abuse counters (games/throttle.py keeps them in the cache)."""
    from django.core.cache import cache

    cache.clear()
    yield
