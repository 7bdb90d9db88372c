"""The player socket (/ws/me/): a signed-in player's pages hear the notices meant for them
(a tournament match of theirs is ready), and nobody else's; a visitor is closed."""

import pytest

from games import services
from tests.consumers.conftest import db, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_both_players_of_a_pairing_hear_that_their_match_is_ready_and_a_third_does_not(people):
    alice, bob, carol = people
    t = await db(services.tournament_create, by=alice, name="Live cup", format="knockout", length=1)
    for p in (alice, bob):
        await db(services.tournament_enter, tournament_id=t.pk, player=p)
    sockets = {}
    for p in (alice, bob, carol):
        sock, connected = await open_socket("/ws/me/", user=p.user)
        assert connected
        sockets[p.display_name] = sock
    await db(services.tournament_start, tournament_id=t.pk)
    for me, them in (("alice", "bob"), ("bob", "alice")):
        frame = await sockets[me].until(lambda m: m["t"] == "tournament_match")
        assert (frame["d"]["tournament"], frame["d"]["name"], frame["d"]["opponent"]) == (t.pk, "Live cup", them)
        assert frame["d"]["url"].startswith("/games/")
    await sockets["carol"].send("ping")
    assert (await sockets["carol"].next())["t"] == "pong"  # and no notice before it
    for sock in sockets.values():
        await sock.comm.disconnect()


async def test_a_visitor_is_closed():
    sock, connected = await open_socket("/ws/me/")
    assert not connected


async def test_the_name_of_the_match_reads_in_each_sockets_language(people, monkeypatch):
    """The pairing is made under one request's language (Greek here); the notice's ``label``, the
    tournament core's English name of the match, is worded by each socket in its own language."""
    from django.utils import translation

    from games.engine import errors as engine_errors

    monkeypatch.setattr(engine_errors, "translate", lambda text: f"[{translation.get_language()}] {text}")
    alice, bob, _carol = people
    await db(services.player_update_settings, player=alice, changes={"language": "de"})
    await db(services.player_update_settings, player=bob, changes={"language": "tr"})
    t = await db(services.tournament_create, by=alice, name="Final cup", format="knockout", length=1)
    for p in (alice, bob):
        await db(services.tournament_enter, tournament_id=t.pk, player=p)
    sockets = {}
    for p in (alice, bob):
        sock, connected = await open_socket("/ws/me/", user=p.user)
        assert connected
        sockets[p.display_name] = sock

    def start():
        with translation.override("el"):
            services.tournament_start(tournament_id=t.pk)

    await db(start)
    for me, language in (("alice", "de"), ("bob", "tr")):
        frame = await sockets[me].until(lambda m: m["t"] == "tournament_match")
        assert frame["d"]["label"] == f"[{language}] Final"
    for sock in sockets.values():
        await sock.comm.disconnect()
