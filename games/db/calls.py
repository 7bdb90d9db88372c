"""Database calls from the event loop: the consumers' and the delivery check's.

Where a call runs (issue 16, measured by ``bench/ws_bench.py``, docs/DEPLOY.md):

- **In the event loop's own thread** on a SQLite file (``GAMES_DB_IN_LOOP``, the default
  there). A call is CPU work in this process with nothing to wait for over a network, and
  the hop to a database thread cost more than it saved (the call handed over, the GIL
  changing hands at each query, the loop woken at the end): 0.9 ms of a move's 6 ms.
- **In the process's own database threads** on PostgreSQL (``GAMES_DB_THREADS``, default
  2), so the loop serves sockets while PostgreSQL answers. A plain executor: Channels'
  ``database_sync_to_async`` costs 115-150 us of CPU a call where this costs 90 (its
  thread-sensitive machinery, which the sockets' calls do not need), and with one thread
  a process's moves queued behind each other's round trips: it held 150-175 moves/s where
  two threads held 200 (three runs each, back to back). Each call takes a connection from
  the process's pool and gives it back (:func:`release_connections` before and after, as
  Channels does). Two games' moves may run side by side (serialised by the match's row
  lock where they meet; a batch that reaches a socket out of order is read back,
  ``GameConsumer.match_events``); one socket's calls still run one after the other, as a
  consumer handles its messages in order.
- **In Channels' database thread** otherwise: with ``GAMES_DB_THREADS=0``, and on an
  in-memory SQLite database (the tests'), whose connections share one cache where a lock
  held by another thread's connection fails at once ("database table is locked") instead
  of being waited for. The live tests (real Daphne processes on a SQLite file) run the
  calls in the loop.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.db import connections
from games import conf

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def in_loop() -> bool:
    if not conf.value("GAMES_DB_IN_LOOP"):
        return False
    in_memory = getattr(connections["default"], "is_in_memory_db", None)  # SQLite's
    return not (in_memory and in_memory())


def threads() -> int:
    """How many database threads the sockets' calls share: ``GAMES_DB_THREADS`` on a
    database with row locks, 0 (Channels' one thread) on SQLite, which has one writer."""
    if connections["default"].vendor == "sqlite":
        return 0
    return max(0, int(conf.value("GAMES_DB_THREADS")))


def executor() -> ThreadPoolExecutor | None:
    """The process's database threads, started on first use; None without them."""
    global _executor
    count = threads()
    if count == 0:
        return None
    if _executor is None or _executor._max_workers != count:
        with _executor_lock:
            if _executor is None or _executor._max_workers != count:
                _executor = ThreadPoolExecutor(max_workers=count, thread_name_prefix="db")
    return _executor


async def db(func, *args, **kwargs):
    """``func(*args, **kwargs)`` (synchronous ORM code), awaited from the event loop."""
    if in_loop():
        return call_here(func, *args, **kwargs)
    pool = executor()
    if pool is None:
        return await database_sync_to_async(func)(*args, **kwargs)
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(pool, context.run, call_closing, func, args, kwargs)


def release_connections() -> None:
    """Django's ``close_old_connections``, except for a connection inside a transaction.

    A connection left unusable (or, on PostgreSQL, any: ``CONN_MAX_AGE`` is 0 there) is
    closed, which gives it back to the process's pool. One in an atomic block belongs to
    the caller's transaction: closing it would break that transaction (Django then refuses
    every query in it), so it is left to whoever opened the block. No call of the site runs
    inside one; a test's own transaction does."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def call_closing(func, args, kwargs):
    """``func`` in a database thread, with the connection checks Channels makes around it
    (:func:`release_connections`)."""
    release_connections()
    try:
        return func(*args, **kwargs)
    finally:
        release_connections()


def call_here(func, *args, **kwargs):
    """Run ``func`` in this thread, which runs an event loop, and block the loop meanwhile.

    Django refuses the ORM in a thread where an event loop runs (its guard against blocking
    the loop by mistake); here blocking it is the point, so the guard is lifted for this
    call alone: the thread's running loop is unset while ``func`` runs, then restored.
    Afterwards, like Channels after each call, a connection that an error left unusable is
    closed, so the next call opens a fresh one.

    The loop's thread lives as long as the process, so its connection is kept open from one
    call to the next (:func:`keep_open`): opening a SQLite connection and running its PRAGMAs
    cost more than a move's queries (issue 16). Every other thread's connection is closed
    when its work ends (``CONN_MAX_AGE`` is 0: docs/DEPLOY.md, "Connections").
    """
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        return func(*args, **kwargs)
    finally:
        asyncio._set_running_loop(loop)
        keep_open()
        release_connections()


def keep_open() -> None:
    """Make this thread's open connections persistent: closed only when an error leaves them
    unusable. For a thread that lives as long as the process (the event loop's)."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None:
            connection.close_at = None
