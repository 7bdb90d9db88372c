"""backgammon_site.pg: a pooled connection is checked as it leaves the pool with no round
trip, and one the server dropped is replaced, not failed on.

Runs in the PostgreSQL pass (tests/pg_pass.py)."""

import select

import psycopg
import pytest
from django.db import connection

from backgammon_site.pg.base import CheckedPool, check_idle
from games.models import Player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: runs in the PostgreSQL pass of `make test` (tests/pg_pass.py)")


def _connect():
    params = connection.get_connection_params()
    return psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}, autocommit=True)


def _terminate(pid: int) -> None:
    with _connect() as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0]


def _until_readable(conn) -> None:
    """Wait (bounded) for the server's goodbye to reach the socket: an event, not a delay."""
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    assert poller.poll(10_000), "the terminated connection never heard from the server"


def test_a_healthy_idle_connection_passes_and_stays_open():
    with _connect() as conn:
        conn.execute("SELECT 1")
        check_idle(conn)
        check_idle(conn)  # it read nothing: still usable, as often as asked
        assert conn.execute("SELECT 2").fetchone()[0] == 2


def test_a_terminated_connection_is_refused_and_closed():
    conn = _connect()
    _terminate(conn.info.backend_pid)
    _until_readable(conn)
    with pytest.raises(psycopg.OperationalError):
        check_idle(conn)
    assert conn.closed  # so the pool discards it instead of handing it out again
    with pytest.raises(psycopg.OperationalError):
        check_idle(conn)


def test_the_pool_uses_it_and_replaces_what_the_server_dropped():
    assert isinstance(connection.pool, CheckedPool)
    Player.objects.count()
    connection.close()  # given back to the pool, idle there
    with _connect() as admin:
        killed = [pid for ok, pid in admin.execute(
            "SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall() if ok]
        assert killed  # at least the pooled connection just given back
        for _ in range(1000):  # until the backends are gone (their goodbye was sent before)
            if not admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [killed]).fetchone()[0]:
                break
            select.poll().poll(10)
        else:
            pytest.fail("the terminated backends never went away")
    # Every pooled connection is dead: the next ORM call still works (with no check, or a
    # check that missed it, it would raise on a dead one).
    assert Player.objects.filter(pk=-1).count() == 0


def test_taking_a_connection_sends_nothing(monkeypatch):
    """psycopg's check is ``conn.execute("")``: a round trip before every database call."""
    connection.close()
    sent = []
    real = psycopg.Connection.execute
    monkeypatch.setattr(psycopg.Connection, "execute", lambda self, *a, **k: sent.append(a) or real(self, *a, **k))
    assert Player.objects.filter(pk=-1).count() == 0  # takes a connection from the pool
    assert sent == []
