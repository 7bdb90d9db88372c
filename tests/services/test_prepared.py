"""games.db.prepared: SQL compiled once per connection reads and writes exactly what the ORM does.

Runs on SQLite here and on PostgreSQL in the PostgreSQL pass (tests/pg_pass.py), where the
lock query is the FOR NO KEY UPDATE one.
"""

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameEvent, Match
from games.db.prepared import PLACEHOLDER, PreparedRead, insert_rows, update_fields, values_in
from games.services.lifecycle import PLAYERS, lock_game

pytestmark = pytest.mark.django_db(transaction=True)

GAME_COLUMNS = [f.attname for f in Game._meta.concrete_fields]
MATCH_COLUMNS = [f.attname for f in Match._meta.concrete_fields]


def _values(obj, names):
    return {name: getattr(obj, name) for name in names}


def test_the_lock_reads_what_the_orm_reads(make_table):
    table = make_table(length=3)
    game = table.game
    with transaction.atomic():
        locked, match = lock_game(game.pk)
    orm = Game.objects.select_related("match", *(f"match__{p}" for p in PLAYERS)).get(pk=game.pk)
    assert _values(locked, GAME_COLUMNS) == _values(orm, GAME_COLUMNS)  # the JSON state and dates converted
    assert _values(match, MATCH_COLUMNS) == _values(orm.match, MATCH_COLUMNS)
    assert match.white == orm.match.white and match.black == orm.match.black
    assert match.white.display_name == table.white.display_name
    assert isinstance(locked.state, dict) and locked.started_at == orm.started_at


def test_an_unknown_id_reads_nothing():
    read = PreparedRead(lambda pk: Game.objects.filter(pk=pk).order_by())
    assert read.first(10**12) is None and read.all(10**12) == []


def test_the_sql_is_compiled_once_per_connection(make_table):
    table = make_table(length=3)
    built = []
    read = PreparedRead(lambda pk: built.append(pk) or Game.objects.filter(pk=pk).order_by())
    pk = table.game.pk
    for _ in range(3):
        assert read.first(pk).pk == pk
    assert built == [PLACEHOLDER]  # built and compiled on first use only
    with CaptureQueriesContext(connection) as queries:
        read.first(pk)
    assert len(queries) == 1  # it goes through the connection's cursor: counted and logged as usual


def test_a_query_that_does_not_take_its_value_once_is_refused():
    read = PreparedRead(lambda pk: Game.objects.filter(pk=pk) | Game.objects.filter(match_id=pk))
    with pytest.raises(ValueError):
        read.first(1)


def test_update_fields_writes_the_fields_and_refuses_a_missing_row(make_table):
    game = make_table(length=3).game
    game.refresh_from_db()
    game.points, game.state = 3, {**game.state, "marker": "x"}
    update_fields(game, ["points", "state"])
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.points == 3 and fresh.state["marker"] == "x"
    game.pk = 10**12
    with pytest.raises(DatabaseError):
        update_fields(game, ["points"])


def test_insert_rows_fills_auto_fields_and_writes_every_row(make_table):
    game = make_table(length=3).game
    top = GameEvent.objects.filter(game=game).order_by("-version").first().version
    rows = [GameEvent(game_id=game.pk, version=top + i, type="rematch_offer", payload={"i": i}) for i in (1, 2)]
    insert_rows(rows, ("game", "version", "type", "payload", "actor", "created_at"))
    assert all(r.created_at is not None for r in rows)  # auto_now_add, as bulk_create fills it
    stored = list(GameEvent.objects.filter(game=game, version__gt=top).order_by("version"))
    assert [(e.version, e.payload, e.created_at) for e in stored] == [(r.version, r.payload, r.created_at) for r in rows]


def test_what_is_built_for_a_connection_goes_with_it():
    """A request's thread ends with the request: its connection, and the SQL built for it,
    must then be freed. Kept in a module-level table keyed by the connection (the table's
    values hold the connection), every request thread's connection stayed open for good."""
    import gc
    import threading
    import weakref

    from django.db import connections

    read = PreparedRead(lambda pk: Game.objects.filter(pk=pk).order_by())
    refs = []

    def request_thread():
        read.first(10**12)
        conn = connections["default"]
        refs.append(weakref.ref(conn))
        conn.close()

    thread = threading.Thread(target=request_thread)
    thread.start()
    thread.join()
    gc.collect()
    assert refs and refs[0]() is None, "the finished thread's connection wrapper is still referenced"


def test_values_in_reads_what_the_orm_reads_in_one_query(make_table):
    tables = [make_table(length=3) for _ in range(3)]
    ids = [t.game.pk for t in tables] + [10**12]  # an unknown id reads nothing
    Game.objects.filter(pk=tables[1].game.pk).update(status=Game.FINISHED)
    names = ("pk", "version", "status", "match_id")
    orm = set(Game.objects.filter(pk__in=ids).values_list(*names))
    with CaptureQueriesContext(connection) as queries:
        assert set(values_in(Game, names, "pk", ids)) == orm and len(orm) == 3
    assert len(queries) == 1
    if connection.vendor == "postgresql":
        assert "ANY(" in queries[0]["sql"]  # the ids as one parameter, however many
    finished = {(m,) for m in Game.objects.filter(status=Game.FINISHED).values_list("match_id", flat=True)}
    assert set(values_in(Game, ("match_id",), "match_id", [t.game.match_id for t in tables],
                         status=Game.FINISHED)) == finished and len(finished) == 1
    assert values_in(Game, names, "pk", []) == []


def test_values_in_reads_more_values_than_one_statement_takes(make_table):
    table = make_table(length=3)
    ids = list(range(10**9, 10**9 + 1200)) + [table.game.pk]  # past SQLite's slice of 500
    assert values_in(Game, ("pk",), "pk", ids) == [(table.game.pk,)]
