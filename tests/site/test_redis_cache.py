"""backgammon_site.redis_cache: one Redis connection pool per process, whatever the thread or
async task. Django's own backend made one pool per cache object, and Django makes a cache
object per thread and per task: under ASGI, a pool (and a connection) per request, never
closed (issue 25)."""

import asyncio
import threading

import pytest
from django.core.cache import CacheHandler

from tests.support import require_redis


@pytest.fixture
def handler():
    url = require_redis()
    return CacheHandler({"default": {"BACKEND": "backgammon_site.redis_cache.RedisCache", "LOCATION": url,
                                     "KEY_PREFIX": "cache-test"}})


def _pools(cache) -> set:
    client = cache._cache
    return {id(client._get_connection_pool(write)) for write in (True, False)}


def test_every_thread_and_task_of_the_process_shares_one_pool(handler):
    seen, caches = set(), []

    def in_a_thread():
        cache = handler["default"]  # Django gives this thread a cache object of its own ...
        cache.set("k", 1)
        caches.append(cache)
        seen.update(_pools(cache))

    threads = [threading.Thread(target=in_a_thread) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    async def in_tasks():
        async def one():
            cache = handler["default"]
            caches.append(cache)
            seen.update(_pools(cache))

        await asyncio.gather(*(asyncio.create_task(one()) for _ in range(5)))

    asyncio.run(in_tasks())
    assert len({id(c) for c in caches}) > 1  # ... and a task one of its own
    assert len(seen) == 1  # but they all use one pool
    handler["default"].delete("k")
