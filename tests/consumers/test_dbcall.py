"""games.db.calls: the consumers' database calls run in the event loop's own thread on a
SQLite file (issue 16), in the process's own database threads on PostgreSQL, in Channels'
database thread otherwise; the layer's thread-safe send works from all."""

import asyncio
import threading

import pytest
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections

from games.db import calls as dbcall
from games.realtime.layer import FanoutLayer
from games.models import Player

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def on_a_file(settings, monkeypatch):
    """As on the embedded default's SQLite file (the tests' database is in memory)."""
    settings.GAMES_DB_IN_LOOP = True
    monkeypatch.setattr(type(connections["default"]), "is_in_memory_db", lambda self: False)


def _count_players():
    return threading.get_ident(), Player.objects.count()


async def test_on_a_sqlite_file_a_call_runs_in_the_loops_thread(on_a_file):
    assert dbcall.in_loop()
    loop = asyncio.get_running_loop()
    thread, count = await dbcall.db(_count_players)
    assert (thread, count) == (threading.get_ident(), 0)
    assert asyncio.get_running_loop() is loop  # restored after the call
    with pytest.raises(SynchronousOnlyOperation):  # Django's guard is lifted for the call only
        _count_players()


async def test_the_loop_is_restored_when_the_call_fails(on_a_file):
    loop = asyncio.get_running_loop()

    def fails():
        Player.objects.count()
        raise ValueError("no")

    with pytest.raises(ValueError):
        await dbcall.db(fails)
    assert asyncio.get_running_loop() is loop
    assert (await dbcall.db(_count_players))[1] == 0  # and the connection still works


async def test_off_or_in_memory_a_call_runs_in_the_database_thread(settings):
    assert not dbcall.in_loop()  # the tests' in-memory database: its shared cache does not wait on locks
    thread, _count = await dbcall.db(_count_players)
    assert thread != threading.get_ident()
    settings.GAMES_DB_IN_LOOP = False
    assert not dbcall.in_loop()
    settings.GAMES_DB_THREADS = 4
    assert dbcall.threads() == 0 and dbcall.executor() is None  # SQLite has one writer: no threads of ours


def _meet(barrier):
    barrier.wait()  # both calls in one thread: the second never starts, and the first times out
    return threading.current_thread().name, Player.objects.count()


@pytest.mark.postgres
async def test_on_postgresql_a_call_runs_in_the_processs_database_thread(settings):
    assert connections["default"].vendor == "postgresql"
    settings.GAMES_DB_THREADS = 1
    name, count = await dbcall.db(_meet, threading.Barrier(1))
    assert name.startswith("db") and count == 0
    held = dbcall.executor().submit(lambda: connections["default"].connection).result()
    assert held is None  # closed after the call: back in the process's pool, not kept by the thread


@pytest.mark.postgres
async def test_on_postgresql_with_more_threads_two_calls_run_side_by_side(settings):
    settings.GAMES_DB_THREADS = 2
    barrier = threading.Barrier(2, timeout=5)
    results = await asyncio.gather(dbcall.db(_meet, barrier), dbcall.db(_meet, barrier))
    assert len({name for name, _count in results}) == 2


@pytest.mark.postgres
async def test_on_postgresql_with_no_threads_a_call_runs_in_channels_database_thread(settings):
    settings.GAMES_DB_THREADS = 0
    assert dbcall.executor() is None
    name, _count = await dbcall.db(_meet, threading.Barrier(1))
    assert not name.startswith("db")


def _release_inside_a_transaction():
    from django.db import transaction

    with transaction.atomic():
        before = Player.objects.count()
        dbcall.release_connections()  # the transaction holds the connection: kept
        after = Player.objects.count()  # Django refuses every query of a transaction whose connection closed
    dbcall.release_connections()  # outside it: given back to the pool
    return before == after, connections["default"].connection


@pytest.mark.postgres
async def test_on_postgresql_a_connection_in_a_transaction_is_kept_until_the_transaction_ends():
    """Django's ``close_old_connections`` closes one whose autocommit is off, in the middle
    of its transaction (the bot API's views failed so in the tests' own transaction)."""
    same, held = await asyncio.to_thread(_release_inside_a_transaction)
    assert same and held is None


@pytest.mark.parametrize("from_loop", [True, False])
async def test_a_threadsafe_group_send_arrives_from_the_loops_thread_and_from_another(from_loop):
    layer = FanoutLayer()
    try:
        channel = await layer.new_channel()
        await layer.group_add("match-1", channel)
        message = {"type": "match.events", "n": 1}
        if from_loop:
            layer.group_send_threadsafe("match-1", message)
        else:
            await asyncio.to_thread(layer.group_send_threadsafe, "match-1", message)
        assert await asyncio.wait_for(layer.receive(channel), 5.0) == message
    finally:
        await layer.flush()
        await layer.close()
