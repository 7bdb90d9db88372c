"""Two players and spectators over real websockets: a whole match, refusals, chat rooms,
reconnect replay, presence and the lobby."""

import pytest

from games import services
from games.dice import ScriptedDice, SeededDice
from games.engine import MOVE, TURN
from games.models import Game, Match
from games.engine.replay import replay_events

from tests.consumers.conftest import current, db, open_socket, wait_for

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SEED = "5eed" * 16  # fixed dice for the whole-match test


async def _start(alice, bob, opening=(3, 1), **options):
    match = await db(services.match_create, creator=alice, **options)
    with services.use_dice(ScriptedDice([(opening[0],), (opening[1],)])):
        await db(services.match_join, player=bob, match_id=match.pk)
    game, _ = await current(match.pk)
    return match, game


def _choose(state):
    plays = state.legal_plays()
    return min(plays, key=lambda p: (p.result.pip_count(state.actor), repr(p)))


async def test_a_whole_match_with_cube_hit_and_bear_off_reaches_everyone_in_order(people, settings):
    settings.GAMES_WS_FLOOD_LIMIT = 10_000  # this test plays much faster than people do
    alice, bob, carol = people
    match = await db(services.match_create, creator=alice, length=2)
    sockets = {}
    with services.use_dice(SeededDice(SEED)):
        await db(services.match_join, player=bob, match_id=match.pk)
        game, state = await current(match.pk)
        sockets["white"], ok1 = await open_socket(f"/ws/games/{game.pk}/", alice)
        sockets["black"], ok2 = await open_socket(f"/ws/games/{game.pk}/", bob)
        watcher, ok3 = await open_socket(f"/ws/games/{game.pk}/", carol)
        assert ok1 and ok2 and ok3
        for sock in (*sockets.values(), watcher):
            snap = await sock.until(lambda m: m["t"] == "snapshot")
            assert snap["v"] == game.version and snap["d"]["board"][24] == 2

        # A spectator cannot act.
        await watcher.send("roll", v=game.version)
        refused = await watcher.until(lambda m: m["t"] == "error")
        assert refused["d"]["code"] == "spectator"

        doubled = False
        for _ in range(400):
            game, state = await current(match.pk)
            if game.status == Game.FINISHED:
                break
            me = sockets[state.actor]
            if state.phase == TURN:
                action = "double" if not doubled and state.can_double(state.actor) else "roll"
                doubled = doubled or action == "double"
                await me.send(action, v=game.version)
            elif state.phase == "cube_offered":
                await me.send("take", v=game.version)
            else:
                assert state.phase == MOVE
                play = _choose(state)
                await me.send("move", {"moves": [s.to_dict() for s in play.steps]}, v=game.version)
            reply = await me.until(lambda m: m["t"] == "error" or (
                m["t"] != "snapshot" and m.get("game") == game.pk and m["v"] > game.version))
            assert reply["t"] != "error", reply
            # Wait until every socket has seen the resulting version.
            after = await db(lambda: Game.objects.get(pk=game.pk).version)
            for sock in (*sockets.values(), watcher):
                await sock.until_version(after, game.pk)
        else:
            raise AssertionError("the game did not end")

    m = await db(Match.objects.get, pk=match.pk)
    assert m.status == Match.FINISHED
    # Everyone received the same events, numbered without gaps.
    streams = [s.events(game.pk) for s in (*sockets.values(), watcher)]
    assert streams[0] == streams[1] == streams[2]
    versions = [v for v, _ in streams[0]]
    assert versions == list(range(versions[0], versions[-1] + 1)) and versions[-1] == game.version
    kinds = [t for _, t in streams[0]]
    assert "double" in kinds and "take" in kinds and kinds[-1] == "game_end"
    # Every move and roll event carries the state after it (no snapshot needed to go on).
    for m in watcher.received:
        if m["t"] in ("move", "roll", "double", "take"):
            assert m["state"]["positionId"] and m["state"]["phase"], m
    moves = [m["d"]["notation"] for m in watcher.received if m["t"] == "move"]
    assert any("*" in text for text in moves), "no hit in this game"
    assert any("/off" in text for text in moves), "no bear-off in this game"
    end = [m for m in watcher.received if m["t"] == "game_end"][-1]["d"]
    assert end["matchOver"] and end["points"] >= 2 and end["diceSeed"]
    # legalMoves went only to the player on roll, and matched the engine's plays.
    assert not any("legalMoves" in m for m in watcher.received)
    for color, sock in sockets.items():
        for m in sock.received:
            if "legalMoves" in m:
                assert m["t"] in ("roll", "opening_roll", "take", "resign_reject")
    for sock in (*sockets.values(), watcher):
        await sock.close()


async def test_refused_actions_get_an_error_and_a_fresh_snapshot(people):
    alice, bob, _ = people
    match, game = await _start(alice, bob, length=3)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    black, _ = await open_socket(f"/ws/games/{game.pk}/", bob)
    await white.until(lambda m: m["t"] == "snapshot")
    await black.until(lambda m: m["t"] == "snapshot")
    v = game.version

    cases = [
        (black, {"t": "move", "d": {"moves": []}, "v": v}, "not_your_turn"),
        (white, {"t": "move", "d": {"moves": [{"from": 13, "to": 12}, {"from": 6, "to": 5}]}, "v": v},
         "blocked_point"),
        (white, {"t": "move", "d": {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}, "v": v - 1},
         "stale_version"),
        (white, {"t": "move", "d": {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}}, "bad_version"),
        (white, {"t": "move", "d": {}, "v": v}, "bad_message"),
        (white, {"t": "double", "v": v}, "wrong_phase"),
        (white, {"t": "fly", "v": v}, "unknown_type"),
        (white, {"t": "move", "d": "x", "v": v}, "bad_message"),
    ]
    for sock, message, code in cases:
        await sock.comm.send_json_to(message)
        error = await sock.until(lambda m: m["t"] == "error")
        assert error["d"]["code"] == code, (message, error)
        assert error["d"]["message"]
        if code not in ("bad_version", "bad_message", "unknown_type"):
            snap = await sock.until(lambda m: m["t"] == "snapshot")
            assert snap["v"] == v
    for raw, code in [("not json", "bad_json"), ("[1, 2]", "bad_message"), ("x" * 5000, "too_large")]:
        await white.comm.send_to(text_data=raw)
        assert (await white.until(lambda m: m["t"] == "error"))["d"]["code"] == code
    game_after = await db(Game.objects.get, pk=game.pk)
    assert game_after.version == v and game_after.state == game.state
    await white.close()
    await black.close()


async def test_a_flood_is_refused_then_closed_with_4008(people, settings):
    """Over the rate, messages are refused with ``rate_limited``; far over it (three times),
    the socket is closed with 4008 (a code Daphne's websocket library lets a server send)."""
    alice, bob, _ = people
    settings.GAMES_WS_FLOOD_LIMIT = 10
    match, game = await _start(alice, bob, length=3)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    for _ in range(40):
        await white.comm.send_json_to({"t": "ping"})
    refused = 0
    while True:
        output = await white.comm.output_queue.get()
        if output["type"] == "websocket.close":
            break
        if '"rate_limited"' in output.get("text", ""):
            refused += 1
    assert refused == 20  # messages 11 to 30
    assert output["code"] == 4008


async def test_chat_rooms_are_separate_and_limited(people):
    alice, bob, carol = people
    match, game = await _start(alice, bob, length=3)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    black, _ = await open_socket(f"/ws/games/{game.pk}/", bob)
    watcher, _ = await open_socket(f"/ws/games/{game.pk}/", carol)
    anonymous, ok = await open_socket(f"/ws/games/{game.pk}/")
    assert ok
    for sock in (white, black, watcher, anonymous):
        history = await sock.until(lambda m: m["t"] == "chat_history")
        assert history["d"]["messages"] == []

    await white.send("chat", {"text": "good luck"})
    line = await black.until(lambda m: m["t"] == "chat")
    assert line["d"]["text"] == "good luck" and line["d"]["room"] == "players"
    await watcher.send("chat", {"text": "  white should   run  "})
    seen = await anonymous.until(lambda m: m["t"] == "chat")
    assert seen["d"]["text"] == "white should run" and seen["d"]["room"] == "spectators"
    await white.send("chat", {"text": "x" * 501})
    assert (await white.until(lambda m: m["t"] == "error"))["d"]["code"] == "chat_too_long"
    await white.comm.send_to(text_data='{"t": "chat", "d": {"text": "a\\ud800b"}}')  # a lone surrogate
    assert (await white.until(lambda m: m["t"] == "error"))["d"]["code"] == "bad_text"  # refused by the parser, before any service
    await anonymous.send("chat", {"text": "hi"})
    assert (await anonymous.until(lambda m: m["t"] == "error"))["d"]["code"] == "login_required"

    # Players never see the spectators' room; spectators never see the players' room.
    for sock in (white, black):
        await sock.drain()
        assert not any(m["t"] == "chat" and m["d"]["room"] == "spectators" for m in sock.received)
    for sock in (watcher, anonymous):
        await sock.drain()
        assert not any(m["t"] == "chat" and m["d"]["room"] == "players" for m in sock.received)

    # A reconnecting player gets the players' room history only.
    again, _ = await open_socket(f"/ws/games/{game.pk}/", bob)
    history = await again.until(lambda m: m["t"] == "chat_history")
    assert [m["text"] for m in history["d"]["messages"]] == ["good luck"]

    for _ in range(5):
        await black.send("chat", {"text": "spam"})
    await black.send("chat", {"text": "one too many"})
    assert (await black.until(lambda m: m["t"] == "error"))["d"]["code"] == "rate_limited"
    for sock in (white, black, watcher, anonymous, again):
        await sock.close()


async def test_reconnect_with_an_old_version_replays_what_was_missed(people):
    alice, bob, _ = people
    match, game = await _start(alice, bob, length=5)
    black, _ = await open_socket(f"/ws/games/{game.pk}/?v=0", bob)
    await black.until_version(game.version, game.pk)  # the whole history so far
    seen = max(v for v, _ in black.events())
    await black.close()

    # While Black is away, the game goes on (Black acts from another device).
    with services.use_dice(SeededDice("ab" * 32)):
        for _ in range(6):
            g, state = await current(match.pk)
            who = alice if state.actor == "white" else bob
            if state.phase == TURN:
                await db(services.game_roll, game_id=g.pk, player=who)
            else:
                play = _choose(state)
                await db(services.game_move, game_id=g.pk, player=who,
                         moves=[s.to_dict() for s in play.steps])
    g, state = await current(match.pk)
    assert g.pk == game.pk and g.version > seen + 3

    back, _ = await open_socket(f"/ws/games/{game.pk}/?v={seen}", bob)
    await back.until_version(g.version, g.pk)
    missed = [v for v, _ in back.events()]
    assert missed == list(range(seen + 1, g.version + 1))
    # Folding every event the client received gives the server's state.
    received = [m for m in black.received + back.received if m.get("game") == g.pk and m["t"] != "snapshot"]
    assert replay_events(received) == state
    if state.phase == MOVE and state.actor == "black":
        assert "legalMoves" in back.received[-1]
    # An old version from the future or garbage gets a snapshot instead.
    odd, _ = await open_socket(f"/ws/games/{game.pk}/?v=999", bob)
    assert (await odd.next())["t"] == "snapshot"
    await back.send("resync", {})
    assert (await back.until(lambda m: m["t"] == "snapshot"))["v"] == g.version
    await back.close()
    await odd.close()


async def test_presence_and_claiming_an_abandoned_match(people, settings):
    alice, bob, _ = people
    settings.GAMES_ABSENCE_GRACE = 120
    match, game = await _start(alice, bob, length=3)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    presence = await white.until(lambda m: m["t"] == "presence" and m["d"]["white"]["connected"])
    assert presence["d"]["black"]["connected"] is False
    black, _ = await open_socket(f"/ws/games/{game.pk}/", bob)
    await white.until(lambda m: m["t"] == "presence" and m["d"]["black"]["connected"])
    await black.close()
    gone = await white.until(lambda m: m["t"] == "presence" and not m["d"]["black"]["connected"])
    assert gone["d"]["black"]["awaySince"]

    await white.send("claim")
    assert (await white.until(lambda m: m["t"] == "error"))["d"]["code"] == "too_early"
    from datetime import timedelta

    from games import clock

    m = await db(Match.objects.get, pk=match.pk)
    with clock.freeze(m.black_away_since + timedelta(seconds=121)):
        await white.send("claim")
        end = await white.until(lambda m: m["t"] == "game_end")
    assert end["d"]["matchOver"] and end["d"]["matchWinner"] == "white"
    m = await db(Match.objects.get, pk=match.pk)
    assert m.status == Match.FINISHED and m.end_reason == "abandoned"
    await white.close()


async def test_origin_session_and_spectator_permissions(people):
    alice, bob, carol = people
    match, game = await _start(alice, bob, length=3, anonymous_spectators=False)
    _, ok = await open_socket(f"/ws/games/{game.pk}/", alice, origin="http://evil.example")
    assert not ok  # cross-site websocket hijacking is refused
    _, ok = await open_socket(f"/ws/games/{game.pk}/")
    assert not ok  # this match does not let anonymous visitors watch
    sock, ok = await open_socket(f"/ws/games/{game.pk}/", carol)
    assert ok
    await sock.close()
    _, ok = await open_socket("/ws/games/999999/", carol)
    assert not ok
    await db(services.player_set_suspended, player=carol, suspended=True)
    _, ok = await open_socket(f"/ws/games/{game.pk}/", carol)
    assert not ok


async def test_the_socket_follows_the_match_into_its_next_game(people):
    alice, bob, _ = people
    match, game = await _start(alice, bob, length=5)  # a resignation now concedes 3 points
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    await white.until(lambda m: m["t"] == "snapshot")
    with services.use_dice(ScriptedDice([(6,), (2,)])):
        await white.send("resign", v=game.version)
        end = await white.until(lambda m: m["t"] == "game_end")
    nxt = end["d"]["nextGame"]
    assert nxt and not end["d"]["matchOver"]
    # The next game's own events follow, from its game_start (version 1) on; the last one
    # carries the state and our legal plays (White opened with 6-2).
    start = await white.until(lambda m: m.get("game") == nxt)
    assert start["t"] == "game_start" and start["v"] == 1 and start["d"]["number"] == 2
    last = await white.until(lambda m: m.get("game") == nxt and "legalMoves" in m)
    assert last["t"] == "opening_roll" and last["state"]["actor"] == "white" and last["legalMoves"]
    # An action meant for the old game, whose version number the new game also has, is stale.
    await white.comm.send_json_to({"t": "resign", "d": {}, "v": last["v"], "game": game.pk})
    error = await white.until(lambda m: m["t"] == "error")
    assert error["d"]["code"] == "stale_version"
    assert (await db(Game.objects.get, pk=nxt)).status == Game.PLAYING
    await white.close()


async def test_lobby_lists_and_pushes_open_and_live_matches(people):
    alice, bob, carol = people
    waiting = await db(services.match_create, creator=carol, length=5)
    lobby, ok = await open_socket("/ws/lobby/")
    assert ok
    first = await lobby.next()
    assert first["t"] == "lobby" and [m["id"] for m in first["d"]["open"]] == [waiting.pk]
    match = await db(services.match_create, creator=alice, length=3)
    added = await lobby.until(lambda m: m["t"] == "lobby_update" and m["d"]["id"] == match.pk)
    assert added["d"]["status"] == "open" and added["d"]["white"]["name"] == "alice"
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        await db(services.match_join, player=bob, match_id=match.pk)
    started = await lobby.until(lambda m: m["t"] == "lobby_update" and m["d"]["id"] == match.pk
                                and m["d"]["status"] == "playing")
    assert started["d"]["black"]["name"] == "bob"
    private = await db(services.match_create, creator=alice, length=1, private=True)
    await db(services.match_leave, match_id=waiting.pk, player=carol)
    removed = await lobby.until(lambda m: m["t"] == "lobby_remove")
    assert removed["d"]["id"] == waiting.pk
    await lobby.drain()
    assert not any(m["t"] == "lobby_update" and m["d"]["id"] == private.pk for m in lobby.received)
    await lobby.close()


async def test_a_database_outage_refuses_the_action_with_unavailable_and_names_it(people, monkeypatch):
    """The database went away during an action (terminated connections): the socket stays
    open, and the refusal says which action to retry (``re``), as every other refusal does."""
    from django.db import OperationalError

    alice, bob, _ = people
    match, game = await _start(alice, bob)
    white, ok = await open_socket(f"/ws/games/{game.pk}/", alice)
    assert ok
    await white.until(lambda m: m["t"] == "snapshot")

    def gone(**kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(services, "game_act", gone)
    await white.send("move", {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}, v=game.version)
    refused = await white.until(lambda m: m["t"] == "error")
    assert refused["d"]["code"] == "unavailable" and refused["d"]["re"] == "move"
    monkeypatch.undo()
    await white.send("move", {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}, v=game.version)  # the retry
    moved = await white.until(lambda m: m["t"] == "move")
    assert moved["v"] == game.version + 1
