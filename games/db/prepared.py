"""Hot-path SQL built once per database connection, run many times (issue 16).

On the move path, building the SQL cost Django more CPU than the database spent running it:
the lock query reads a game with its match, both players and their house-bot rows (about 90
columns), and compiling it (columns, joins, converters, the model's default ordering) took
most of a move's service time. Here a query is compiled once per connection and run again
with another value:

- :class:`PreparedRead` compiles a QuerySet built around a placeholder value and builds the
  model instances from each row as the ORM does (``Model.from_db``, the related populators
  of ``select_related``, the field converters);
- :func:`update_fields` is ``obj.save(update_fields=...)`` and :func:`insert_rows` is
  ``bulk_create`` (one multi-row insert; the rows get no primary key back), with SQL
  built once from the model's fields and values prepared by the fields themselves.

Everything goes through the connection's cursor: transactions, ``CaptureQueriesContext``
and query logging see these statements like any other. Nothing here sends signals; it is
for models that have none on these paths (the tests of the services read every row back).

What is built for a connection is kept on that connection's own wrapper (:func:`_cache_of`),
so it lives and dies with it. It was once kept in module-level weak dictionaries keyed by
the wrapper, whose values (a compiler, the backend's converters) hold the wrapper itself: a
weak key that its own value keeps alive is never freed, and every request thread's
connection (two open files each on SQLite) was kept for the life of the process (issue 25).
"""

from __future__ import annotations

from django.db import DatabaseError, connections
from django.db.models.query import get_related_populators

PLACEHOLDER = 7_777_777_777_777_777  # stands for the value while compiling; never a real id


class _Compiled:
    """One QuerySet's SQL and row decoding, for one connection."""

    def __init__(self, queryset, connection_alias):
        compiler = queryset.query.get_compiler(using=connection_alias)
        sql, params = compiler.as_sql()
        slots = [i for i, p in enumerate(params) if p == PLACEHOLDER]
        if len(slots) != 1:
            raise ValueError("A prepared query takes its value exactly once.")
        self.compiler, self.sql, self.params, self.slot = compiler, sql, list(params), slots[0]
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start:self.end]]
        self.populators = get_related_populators(klass_info, select, connection_alias)
        self.converters = compiler.get_converters([s[0] for s in select[:compiler.col_count]])

    def rows(self, value) -> list:
        params = list(self.params)
        params[self.slot] = value
        with self.compiler.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            rows = list(self.compiler.apply_converters(rows, self.converters))
        return rows

    def objects(self, value) -> list:
        db = self.compiler.using
        out = []
        for row in self.rows(value):
            obj = self.model.from_db(db, self.init_list, row[self.start:self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            out.append(obj)
        return out


def _cache_of(connection) -> dict:
    """What has been built for ``connection`` (a wrapper is used by one thread at a time)."""
    try:
        return connection._games_prepared
    except AttributeError:
        cache = connection._games_prepared = {}
        return cache


class PreparedRead:
    """A read whose SQL is compiled once per connection.

    ``build(value)`` returns the QuerySet for ``value``; it is called once per connection
    with :data:`PLACEHOLDER`, which must reach the SQL as exactly one parameter.
    """

    def __init__(self, build, using: str = "default"):
        self.build, self.using = build, using

    def _for(self, connection) -> _Compiled:
        cache = _cache_of(connection)
        compiled = cache.get(self)
        if compiled is None:
            compiled = cache[self] = _Compiled(self.build(PLACEHOLDER), self.using)
        return compiled

    def all(self, value) -> list:
        return self._for(connections[self.using]).objects(value)

    def first(self, value):
        """The first instance for ``value``, or None."""
        found = self.all(value)
        return found[0] if found else None


# -- writes --------------------------------------------------------------------------------------

def _cached(connection, key, make):
    cache = _cache_of(connection)
    found = cache.get(key)
    if found is None:
        found = cache[key] = make()
    return found


def _update_sql(obj, names, connection) -> tuple:
    model = type(obj)

    def make():
        fields = [model._meta.get_field(name) for name in names]
        qn = connection.ops.quote_name
        sets = ", ".join(f"{qn(f.column)} = %s" for f in fields)
        return f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {qn(model._meta.pk.column)} = %s", fields

    sql, fields = _cached(connection, ("update", model, tuple(names)), make)
    params = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
    return sql, params


def _insert_sql(objs: list, names, connection) -> tuple:
    model = type(objs[0])

    def make():
        fields = [model._meta.get_field(name) for name in names]
        qn = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        head = f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) VALUES "
        return head, row, fields

    head, row, fields = _cached(connection, ("insert", model, tuple(names)), make)
    params = []
    for obj in objs:
        for f in fields:
            params.append(f.get_db_prep_save(f.pre_save(obj, True), connection))
    return head + ", ".join([row] * len(objs)), params


def _execute_update(connection, obj, sql, params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"Updating {type(obj).__name__} {obj.pk} changed {cursor.rowcount} rows.")


def update_fields(obj, names, using: str = "default") -> None:
    """``obj.save(update_fields=names)`` with SQL built once (no signals, no ``pre_save``:
    for fields the caller sets itself)."""
    connection = connections[using]
    _execute_update(connection, obj, *_update_sql(obj, names, connection))


def insert_rows(objs: list, names, using: str = "default") -> list:
    """``bulk_create(objs)`` in one multi-row insert of the fields ``names`` (each field's
    ``pre_save`` runs, so ``auto_now_add`` is filled in on the objects); the objects get no
    primary key back."""
    if not objs:
        return objs
    connection = connections[using]
    sql, params = _insert_sql(objs, names, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    return objs


def insert_rows_and_update(objs: list, names, obj, update_names, using: str = "default") -> list:
    """``insert_rows(objs, names)`` then ``update_fields(obj, update_names)``: on PostgreSQL
    in one statement (the insert in a ``WITH``), so one round trip instead of two."""
    connection = connections[using]
    if not objs or connection.vendor != "postgresql":
        insert_rows(objs, names, using)
        update_fields(obj, update_names, using)
        return objs
    insert, insert_params = _insert_sql(objs, names, connection)
    update, update_params = _update_sql(obj, update_names, connection)
    _execute_update(connection, obj, f"WITH inserted AS ({insert}) {update}", insert_params + update_params)
    return objs


# -- reads of many rows by key -------------------------------------------------------------------

def values_in(model, names, key: str, values, using: str = "default", **equal) -> list:
    """The rows (tuples of the fields ``names``) of ``model`` whose field ``key`` is one of
    ``values`` and whose other fields equal ``equal``: ``filter(key__in=values, **equal)
    .values_list(*names)`` with SQL built once, for fields whose values need no converter
    (integers, text). On PostgreSQL the values are one parameter, an array (``= ANY``),
    however many there are: a read of 500 ids once a second spent more of the web process's
    CPU compiling and quoting 500 parameters than the database spent reading the rows.
    Elsewhere, one parameter per value, in slices the database accepts."""
    values = list(values)
    if not values:
        return []
    connection = connections[using]
    array = connection.vendor == "postgresql"

    def make():
        qn = connection.ops.quote_name
        def column(name):
            return qn((model._meta.pk if name == "pk" else model._meta.get_field(name)).column)

        where = [f"{column(key)} = ANY(%s)" if array else f"{column(key)} IN ({{}})"]
        where += [f"{column(name)} = %s" for name in sorted(equal)]
        return f"SELECT {', '.join(column(n) for n in names)} FROM {qn(model._meta.db_table)} WHERE {' AND '.join(where)}"

    sql = _cached(connection, ("values_in", model, tuple(names), key, tuple(sorted(equal))), make)
    rest = [equal[name] for name in sorted(equal)]
    out = []
    with connection.cursor() as cursor:
        if array:
            cursor.execute(sql, [values, *rest])
            return cursor.fetchall()
        for i in range(0, len(values), 500):
            part = values[i:i + 500]
            cursor.execute(sql.format(", ".join(["%s"] * len(part))), [*part, *rest])
            out.extend(cursor.fetchall())
    return out
