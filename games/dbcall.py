"""Database calls from the event loop: the consumers' and the delivery check's.

Channels runs them in one database thread (``database_sync_to_async``), so the loop keeps
serving sockets while PostgreSQL answers over the network or a row lock is waited for.
On SQLite there is nothing to wait for: a call is CPU work in this process, and the hop
costs more than it saves (the call is handed to the thread, the GIL changes hands at each
query, the loop is woken when it ends): 0.9 ms of a move's 6 ms, measured by
``bench/ws_bench.py`` (issue 16, docs/DEPLOY.md). So with ``GAMES_DB_IN_LOOP`` (the
default on SQLite, off on PostgreSQL) the call runs in the loop's own thread.

Not with an in-memory SQLite database (the tests'): its connections share one cache, where
a lock held by another thread's connection fails at once ("database table is locked")
instead of being waited for, so there the calls stay in the one database thread. The live
tests (real Daphne processes on a SQLite file) run them in the loop.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections


def in_loop() -> bool:
    if not getattr(settings, "GAMES_DB_IN_LOOP", False):
        return False
    in_memory = getattr(connections["default"], "is_in_memory_db", None)  # SQLite's
    return not (in_memory and in_memory())


async def db(func, *args, **kwargs):
    """``func(*args, **kwargs)`` (synchronous ORM code), awaited from the event loop."""
    if in_loop():
        return call_here(func, *args, **kwargs)
    return await database_sync_to_async(func)(*args, **kwargs)


def call_here(func, *args, **kwargs):
    """Run ``func`` in this thread, which runs an event loop, and block the loop meanwhile.

    Django refuses the ORM in a thread where an event loop runs (its guard against blocking
    the loop by mistake); here blocking it is the point, so the guard is lifted for this
    call alone: the thread's running loop is unset while ``func`` runs, then restored.
    Afterwards, like Channels after each call, a connection that an error left unusable
    (or that is past ``CONN_MAX_AGE``) is closed, so the next call opens a fresh one.
    """
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        return func(*args, **kwargs)
    finally:
        asyncio._set_running_loop(loop)
        close_old_connections()
