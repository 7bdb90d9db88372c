"""Bad input never reaches a 500 or a dead socket: the cases of issue 12, on the real paths.

HTTP through the test client, websockets through the real ASGI stack (origin check,
session, routing, consumer), a 10 MB frame against a real Daphne process
(``backgammon_site.serve``), and NUL on PostgreSQL, which refuses it in text (SQLite
stores it, so that case runs in ``python -m tests.pg_pass``). Each case checks the status
or close code, the error code, that nothing was logged with a traceback and that nothing
changed in the database.
"""

import asyncio
import json

import pytest
from django.db import connection
from django.test import Client

from games import services
from games.models import Agent, ChatMessage, Game, GameEvent, Player
from tests.consumers.conftest import open_socket
from tests.security.conftest import make_player


def _post(client, path, raw, key=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.post(path, raw, content_type="application/json", headers=headers)


def _counts():
    return (Player.objects.count(), Agent.objects.count(), ChatMessage.objects.count(), GameEvent.objects.count())


@pytest.fixture
def api(db, settings):
    settings.GAMES_API_RATE_LIMIT = 0
    client = Client()
    data = _post(client, "/api/agents", json.dumps({"name": "prober"})).json()
    return client, data["apiKey"]


BODIES = {
    "nested_15000": ("[" * 15000 + "]" * 15000, "too_large"),  # over the body limit before its depth counts
    "nested_4000": ('{"name": ' + "[" * 4000 + "]" * 4000 + "}", "too_deep"),
    "description_nul": (json.dumps({"name": "nul-agent", "description": "a\u0000b"}), "bad_description"),
    "name_nul": (json.dumps({"name": "nul\u0000agent"}), "bad_name"),
    "lone_surrogate": ('{"name": "sur-agent", "description": "x\\ud800y"}', "bad_text"),
    "lone_low_surrogate": ('{"name": "sur-agent", "description": "\\udc00"}', "bad_text"),
    "not_utf8": (b'{"name": "\xff\xfe"}', "bad_json"),
    "huge": ('{"name": "x", "description": "' + "a" * 200_000 + '"}', "too_large"),
}


@pytest.mark.parametrize("case", sorted(BODIES))
def test_api_bodies_are_refused_with_a_code(api, case, no_tracebacks):
    client, _ = api
    body, code = BODIES[case]
    before = _counts()
    response = _post(client, "/api/agents", body)
    assert response.status_code in (400, 413), response.content
    assert response.json()["error"]["code"] == code
    assert _counts() == before


def test_api_moves_nested_3000_deep(api, no_tracebacks):
    client, key = api
    alice = make_player("alice")
    agent = Agent.objects.get().player
    match = services.match_create(creator=alice, length=1)
    services.match_join(player=agent, match_id=match.pk)
    before = _counts()
    body = '{"type": "move", "moves": ' + "[" * 3000 + "]" * 3000 + "}"
    response = _post(client, f"/api/matches/{match.pk}/actions", body, key)
    assert response.status_code == 400 and response.json()["error"]["code"] == "too_deep"
    assert _counts() == before


# -- websockets: real frames through the real stack -------------------------------------------


@pytest.fixture
def seated(transactional_db):
    alice, bob = make_player("alice"), make_player("bob")
    match = services.match_create(creator=alice, length=1)
    services.match_join(player=bob, match_id=match.pk)
    return alice, Game.objects.get(match=match)


FRAMES = {
    "moves_1500_deep": ('{"t": "move", "v": 1, "d": {"moves": ' + "[" * 1500 + "]" * 1500 + "}}", "too_deep"),
    "brackets_4000": ("[" * 4000, "too_deep"),
    "chat_nul": (json.dumps({"t": "chat", "d": {"text": "hi\u0000there"}}), "bad_chat"),
    "chat_surrogate": ('{"t": "chat", "d": {"text": "hi \\ud83d there"}}', "bad_text"),
    "over_4kb": (json.dumps({"t": "chat", "d": {"text": "a" * 5000}}), "too_large"),
}


@pytest.mark.parametrize("case", sorted(FRAMES))
def test_socket_messages_are_refused_and_the_socket_lives(seated, case, no_tracebacks):
    alice, game = seated
    frame, code = FRAMES[case]

    async def run():
        sock, connected = await open_socket(f"/ws/games/{game.pk}/", alice)
        assert connected
        await sock.drain()
        before = await asyncio.to_thread(_counts)
        await sock.comm.send_to(text_data=frame)
        error = await sock.until(lambda m: m["t"] == "error")
        await sock.send("ping")  # the socket is still alive and answers
        pong = await sock.until(lambda m: m["t"] == "pong")
        after = await asyncio.to_thread(_counts)
        await sock.close()
        return error, pong, before, after

    error, pong, before, after = asyncio.run(run())
    assert error["d"]["code"] == code
    assert pong["t"] == "pong" and before == after


@pytest.mark.django_db
def test_forms_refuse_nul(client, no_tracebacks):
    before = _counts()
    response = client.post("/accounts/signup/", {"username": "eve", "display_name": "e\u0000ve",
                                                 "password1": "a-long-password-9", "password2": "a-long-password-9"})
    assert response.status_code == 200 and b"Null characters are not allowed" in response.content
    assert _counts() == before


# -- a frame over the transport limit: a real Daphne closes it with 1009 ------------------------


def test_a_10_mb_frame_is_closed_with_1009_and_a_reason(tmp_path):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from tests.live import Site

    with Site(tmp_path, webs=1) as site:
        port = site.webs[0].port

        async def run():
            async with connect(f"ws://127.0.0.1:{port}/ws/lobby/", origin=f"http://127.0.0.1:{port}",
                               max_size=None, open_timeout=10) as ws:
                await ws.recv()  # the lobby's first message
                try:
                    await ws.send("x" * (10 * 1024 * 1024))
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as exc:
                    return exc.rcvd

        received = asyncio.run(asyncio.wait_for(run(), 60))
        assert received is not None, "the connection dropped without a close frame"
        assert received.code == 1009 and "exceeds" in received.reason
        assert site.tracebacks() == []


MANY_PLAYS = """
import json
from dataclasses import replace
from games import services
from games.engine import MOVE, WHITE, Position
from games.selectors.serializers import game_snapshot
human = services.player_register(username="hugo", password=None)
match = services.match_vs_bot(player=human, level="beginner", length=1)
game = match.games.get()
board = (0, -15, 0, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1)
state = replace(game.game_state(), position=Position(board, turn=WHITE), phase=MOVE, dice=(1, 1))
game.state = state.to_dict()
game.save(update_fields=["state"])
print("RESULT " + json.dumps({"game": game.pk, "plays": len(state.legal_plays()),
                              "bytes": len(json.dumps(game_snapshot(game, WHITE), separators=(",", ":")))}))
"""


def test_a_frame_of_ours_over_the_clients_limit_is_sent_whole(tmp_path):
    """The transport limit is for what clients send: 1-1 here leaves 2137 legal plays, a
    snapshot of 170 KB. autobahn applied the limit to our sends too; the consumer died on the
    frame, and the client's resync asked for it again."""
    from websockets.asyncio.client import connect

    from tests.live import Site

    with Site(tmp_path, webs=1) as site:
        ids = site.shell(MANY_PLAYS)
        assert ids["bytes"] > 2 * 65536, ids  # over the limit Daphne runs with (tests.live.DAPHNE_FLAGS)
        cookie = site.sessions(["hugo"])["hugo"]
        port = site.webs[0].port

        async def run():
            async with connect(f"ws://127.0.0.1:{port}/ws/games/{ids['game']}/", origin=f"http://127.0.0.1:{port}",
                               additional_headers={"Cookie": f"sessionid={cookie}"}, max_size=None,
                               open_timeout=10) as ws:
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if frame["t"] == "snapshot":
                        return frame

        snapshot = asyncio.run(asyncio.wait_for(run(), 60))
        assert snapshot["d"]["you"] == "white" and len(snapshot["d"]["legalMoves"]) == ids["plays"] == 2137
        assert site.tracebacks() == [], site.logs()


# -- NUL on PostgreSQL (SQLite accepts it: run by `python -m tests.pg_pass`) ------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", ["description_nul", "name_nul"])
def test_nul_is_refused_before_postgresql_sees_it(case, settings, no_tracebacks):
    assert connection.vendor == "postgresql"
    settings.GAMES_API_RATE_LIMIT = 0
    before = _counts()
    response = _post(Client(), "/api/agents", BODIES[case][0])
    assert response.status_code == 400 and response.json()["error"]["code"] == BODIES[case][1]
    assert _counts() == before


@pytest.mark.postgres
def test_nul_chat_is_refused_on_postgresql(seated, no_tracebacks):
    assert connection.vendor == "postgresql"
    alice, game = seated

    async def run():
        sock, connected = await open_socket(f"/ws/games/{game.pk}/", alice)
        assert connected
        await sock.drain()
        await sock.comm.send_to(text_data=FRAMES["chat_nul"][0])
        error = await sock.until(lambda m: m["t"] == "error")
        await sock.close()
        return error

    assert asyncio.run(run())["d"]["code"] == "bad_chat"
    assert not ChatMessage.objects.exists()
