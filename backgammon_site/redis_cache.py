"""Django's Redis cache with one connection pool per process.

Django's cache handler gives every thread and every async task a cache object of its own,
and ``django.core.cache.backends.redis.RedisCache`` gives every cache object a client with
its own connection pool, which nothing closes (Django ticket #35651). Under ASGI each
request is a new task in a new thread: each one opened a Redis connection that outlived it
(a web process held 1,442 after a minute of bot-API play, issue 25). Here every cache object
of the process with the same location and options shares one client, so one pool;
redis-py's pool is thread-safe and hands out a connection per command.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

_clients: dict = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
