"""Django's PostgreSQL backend with a pool check that costs no round trip.

Django checks a pooled connection as it leaves the pool (``CONN_HEALTH_CHECKS``) with
psycopg's ``check_connection``: an empty query, one round trip to the server before every
request and every database call of a socket (with ``CONN_MAX_AGE = 0`` each call takes a
connection from the pool and gives it back). A move made seven round trips, one of them
that check (issue 16).

:func:`check_idle` looks instead at what an idle connection cannot have: something to
read. A server that terminates a backend (``pg_terminate_backend``, a restart, a
failover) sends it an error and closes the socket, so the socket turns readable; a healthy
idle connection is never sent anything (the site does not ``LISTEN``). A readable one is
closed, so the pool drops it and hands out another; the rare false alarm (a parameter
status the server pushes after a configuration reload) costs one reconnection. What
neither check can see, a connection whose peer vanished without a word, fails on its
query as it would have failed on the empty one.

Selected by ``settings.DATABASES`` when ``DATABASE_URL`` names PostgreSQL, with
``CONN_HEALTH_CHECKS`` off (that is psycopg's check); :class:`CheckedPool` checks instead.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base


def check_idle(conn) -> None:
    """Raise (closing ``conn``) if the idle pooled connection ``conn`` is closed or has
    anything waiting to be read: the server has dropped it."""
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    poller = select.poll()  # not select(): a web process holds more than 1024 descriptors
    poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    if poller.poll(0):
        conn.close()
        raise psycopg.OperationalError("the server has dropped this pooled connection")


class CheckedPool:
    """The process's psycopg pool, handing out only connections :func:`check_idle` passes.

    A dead one is closed and given back (the pool drops it and opens a replacement) and the
    next is tried at once: after a database restart every idle connection is dead, and
    psycopg's own check loop waits 1, 2, 4... s between them (a request timed out behind
    eight dead connections). Everything else is the pool's own."""

    def __init__(self, pool):
        self._pool = pool

    def __getattr__(self, name):
        return getattr(self._pool, name)

    def getconn(self, timeout=None):
        for _ in range(self._pool.max_size):
            conn = self._pool.getconn(timeout)
            try:
                check_idle(conn)
            except psycopg.OperationalError:
                self._pool.putconn(conn)  # closed: dropped and replaced
                continue
            return conn
        return self._pool.getconn(timeout)  # every one was dead: a new one, as the pool opens it


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool  # created without psycopg's check (CONN_HEALTH_CHECKS is off)
        return None if pool is None else CheckedPool(pool)
