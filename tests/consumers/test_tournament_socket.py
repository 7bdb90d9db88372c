"""The tournament socket: the version on connect, a frame for every committed change (an
entry, the draw, a result), the idle ping's answer; an unknown tournament is closed."""

import pytest

from games import services
from games.models import Tournament
from tests.consumers.conftest import db, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def version(pk):
    return Tournament.objects.get(pk=pk).version


async def test_the_socket_tells_every_change_of_the_tournament():
    ann, bob = [await db(services.player_register, username=n, password=f"correct horse {n}") for n in ("ann", "bob")]
    t = await db(services.tournament_create, by=ann, name="Live", format="knockout", length=1)
    sock, connected = await open_socket(f"/ws/tournaments/{t.pk}/")
    assert connected
    first = await sock.next()
    assert first == {"t": "tournament", "v": 0, "d": {"id": t.pk}}
    await db(services.tournament_enter, tournament_id=t.pk, player=ann)
    assert (await sock.next())["v"] == 1
    await db(services.tournament_enter, tournament_id=t.pk, player=bob)
    await sock.until(lambda m: m["v"] == 2)
    await db(services.tournament_start, tournament_id=t.pk)
    started = await db(version, t.pk)
    await sock.until(lambda m: m["t"] == "tournament" and m["v"] == started)
    match = (await db(lambda: list(Tournament.objects.get(pk=t.pk).links.values_list("match_id", flat=True))))[0]
    await db(services.match_leave, match_id=match, player=bob)
    finished = await db(version, t.pk)
    assert finished > started
    await sock.until(lambda m: m["t"] == "tournament" and m["v"] == finished)
    await sock.send("ping", v=1)
    assert (await sock.next()) == {"t": "pong", "v": None, "d": {"v": finished}}
    assert (await sock.next())["v"] == finished  # the client was behind: told again
    await sock.comm.disconnect()


async def test_an_unknown_tournament_is_closed():
    sock, connected = await open_socket("/ws/tournaments/999/")
    assert not connected
