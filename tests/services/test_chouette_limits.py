"""A chouette's limits through the real paths: the cube limit (64 by default, like a
match's; none by option), so no cube runs away; the public tables one player may hold with
nobody else seated; the lobby, tables with a free seat first, a page at a time, so empty
tables cannot push real ones out."""

import re

import pytest
from django.test import Client

from games import conf, services
from games.engine import chouette as ce
from games.engine.errors import IllegalAction
from games.errors import Conflict
from games.models import Chouette, ChouetteGame
from games.selectors import chouettes as chouette_view
from tests.security.conftest import no_tracebacks  # noqa: F401 - the fixture
from tests.services.chouette_support import CycleDice, play_game_out, polite, state


def _players(n, prefix="p"):
    return [services.player_register(username=f"{prefix}{i}", password=f"correct horse {i}") for i in range(n)]


def _started(humans, **options):
    c = services.chouette_create(player=humans[0], options=options or None)
    for p in humans[1:]:
        services.chouette_join(player=p, invite_code=c.invite_code)
    with services.use_dice(CycleDice([6, 5, 4, 6, 5])):
        services.chouette_start(chouette_id=c.pk, player=humans[0])
    return c


def _doubler(game, pending):
    """Everyone doubles whenever allowed and takes every double."""
    if pending.reason == "double_decision":
        return ("double", {}) if "double" in game.allowed_actions(pending.player) else ("no_double", {})
    if pending.reason == "double_answer":
        return "take", {"cube": pending.cubes[0]}
    return polite(game, pending)


@pytest.mark.django_db(transaction=True)
def test_the_cube_stops_at_64_by_default():
    humans = _players(3)
    by_id = {p.pk: p for p in humans}
    c = _started(humans)
    assert c.rules["cubeLimit"] == 64
    with services.use_dice(CycleDice()):
        row = play_game_out(c.pk, by_id, policy=_doubler)
    result = ce.ChouetteResult.from_dict(row.result)
    values = [m.cube_value for m in result.members]
    assert max(values) == 64 and all(v <= 64 for v in values), values


def _captain_doubles(game, pending):
    """Only the captain doubles (the box takes); the crew's cube stays centred for the box."""
    if pending.reason == "double_decision":
        allowed = pending.player == game.captain and "double" in game.allowed_actions(pending.player)
        return ("double", {}) if allowed else ("no_double", {})
    return polite(game, pending)


@pytest.mark.django_db(transaction=True)
def test_a_double_past_the_limit_is_refused_and_changes_nothing():
    humans = _players(3)
    by_id = {p.pk: p for p in humans}
    c = _started(humans, cubeLimit=2)
    box = None
    with services.use_dice(CycleDice()):
        for _ in range(400):  # play until the box's window comes with a cube at the limit
            chouette, row, _session, game = state(c.pk)
            at_limit = [x.member for x in game.cubes if x.in_play and x.value == 2 and x.owner == "box"]
            if game.phase == ce.CUBE_WINDOW and game.window_decider() == game.box and at_limit:
                box = by_id[game.box]
                break
            p = next(p for p in game.pending() if p.player in by_id)
            action, fields = _captain_doubles(game, p)
            services.chouette_act(chouette_id=c.pk, player=by_id[p.player], action=action,
                                  expected_version=chouette.version, **fields)
    assert box is not None, "the box never held a cube at the limit"
    before = ChouetteGame.objects.get(pk=row.pk).state
    with pytest.raises(IllegalAction) as info:
        services.chouette_act(chouette_id=c.pk, player=box, action="double", cubes=[at_limit[0]],
                              expected_version=chouette.version)
    assert info.value.code == "cube_limit"
    assert ChouetteGame.objects.get(pk=row.pk).state == before
    assert Chouette.objects.get(pk=c.pk).version == chouette.version


@pytest.mark.django_db
@pytest.mark.parametrize("posted,limit", [("64", 64), ("8", 8), ("", None), ("none", None)])
def test_the_new_chouette_form_sets_the_cube_limit(posted, limit):
    owner = _players(1, "f")[0]
    client = Client()
    client.force_login(owner.user)
    response = client.post("/chouettes/new/", {"cube_limit": posted, "decision_seconds": "60"})
    assert response.status_code == 302
    assert Chouette.objects.get().rules["cubeLimit"] == limit


@pytest.mark.django_db
@pytest.mark.parametrize("posted", ["3", "1", "６４", "x"])
def test_a_bad_cube_limit_opens_nothing(posted):
    owner = _players(1, "f")[0]
    client = Client()
    client.force_login(owner.user)
    response = client.post("/chouettes/new/", {"cube_limit": posted}, follow=True)
    assert "power of two" in response.content.decode()
    assert not Chouette.objects.exists()


def _logged_in(player):
    client = Client()
    client.force_login(player.user)
    return client


def _open_by_form(client, **fields):
    before = Chouette.objects.count()
    response = client.post("/chouettes/new/", {"decision_seconds": "60", **fields}, follow=True)
    return response, Chouette.objects.count() - before


@pytest.mark.django_db
def test_a_player_holds_at_most_three_public_tables_where_nobody_else_sits(settings, no_tracebacks):
    alice, bob = _players(2, "t")
    client = _logged_in(alice)
    for _ in range(3):
        assert _open_by_form(client)[1] == 1
    response, made = _open_by_form(client)
    assert made == 0 and "nobody else sits" in response.content.decode()
    with pytest.raises(Conflict) as info:
        services.chouette_create(player=alice)
    assert info.value.code == "too_many_open_chouettes" and info.value.status == 409
    assert _open_by_form(client, private="on")[1] == 1  # a private table is not in the lobby: not counted
    # a house bot does not make a table less empty; another person does
    tables = list(Chouette.objects.filter(created_by=alice, private=False).order_by("pk"))
    services.chouette_add_bot(chouette_id=tables[0].pk, player=alice, level="beginner")
    assert _open_by_form(client)[1] == 0
    services.chouette_join(player=bob, chouette_id=tables[1].pk)
    assert _open_by_form(client)[1] == 1
    # leaving a table where nobody else sits closes it, and frees its place
    services.chouette_leave(chouette_id=tables[2].pk, player=alice)
    closed = Chouette.objects.get(pk=tables[2].pk)
    assert closed.status == Chouette.FINISHED and closed.finished_at is not None
    assert closed.pk not in [t["id"] for t in chouette_view.open_chouettes()]
    assert _open_by_form(client)[1] == 1
    assert _open_by_form(client)[1] == 0
    assert chouette_view.lonely_tables(alice) == conf.value("GAMES_CHOUETTE_OPEN_LIMIT") == 3


@pytest.mark.django_db
def test_the_bot_api_answers_the_open_table_limit_with_409(settings, no_tracebacks):
    from tests.api.conftest import register

    settings.GAMES_API_RATE_LIMIT, settings.GAMES_CHOUETTE_OPEN_LIMIT = 100000, 1
    agent = register("agent-tables")
    assert agent.post("/api/chouettes", {}).status_code == 201
    refused = agent.post("/api/chouettes", {})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_open_chouettes"
    assert Chouette.objects.count() == 1


@pytest.mark.django_db
def test_the_lobby_lists_tables_with_free_seats_first_a_page_at_a_time(settings):
    settings.GAMES_CHOUETTE_OPEN_LIMIT = 1000
    alice, bob, carol, dave, mallory = _players(5, "l")
    real = services.chouette_create(player=alice)  # the oldest: two people wait there
    services.chouette_join(player=bob, chouette_id=real.pk)
    full = services.chouette_create(player=carol, options={"maxPlayers": 3})
    for p in (dave, bob):
        services.chouette_join(player=p, chouette_id=full.pk)
    empties = [services.chouette_create(player=mallory).pk for _ in range(chouette_view.LOBBY_PAGE + 5)]
    first = Client().get("/chouettes/").content.decode()
    rows = [int(n) for n in re.findall(r'data-chouette="(\d+)"', first)]
    assert len(rows) == chouette_view.LOBBY_PAGE and rows[0] == real.pk
    assert rows[1:] == sorted(empties, reverse=True)[:chouette_view.LOBBY_PAGE - 1]  # newest empty ones next
    assert 'rel="next"' in first and "Page 1 of 2" in first
    second = Client().get("/chouettes/?page=2").content.decode()
    rest = [int(n) for n in re.findall(r'data-chouette="(\d+)"', second)]
    assert rest[-1] == full.pk and set(rows + rest) == {real.pk, full.pk, *empties}  # the full table last
    assert 'rel="prev"' in second and 'rel="next"' not in second
    assert Client().get("/chouettes/?page=99").content.decode().count("data-chouette=") == len(rest)
    assert Client().get("/chouettes/?page=x").status_code == 200
    # the home page and the bot API read the same order
    assert f"/chouettes/join/{real.invite_code}/" in Client().get("/").content.decode().split("home-chouettes")[1][:400]
    from tests.api.conftest import register

    settings.GAMES_API_RATE_LIMIT = 100000
    agent = register("agent-lobby")
    page = agent.get("/api/chouettes?page=2").json()
    assert page["page"] == 2 and page["pages"] == 2 and [t["id"] for t in page["open"]] == rest
    assert agent.get("/api/chouettes").json()["open"][0]["id"] == real.pk


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_requests_cannot_pass_the_open_table_limit_together():
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: runs in the PostgreSQL pass of `make test` (tests/pg_pass.py)")
    owner = _players(1, "r")[0]
    barrier, codes = threading.Barrier(6), []

    def open_one():
        try:
            barrier.wait(timeout=20)
            services.chouette_create(player=owner)
            codes.append("ok")
        except Conflict as exc:
            codes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(codes) == ["ok"] * 3 + ["too_many_open_chouettes"] * 3
    assert Chouette.objects.filter(created_by=owner).count() == 3
