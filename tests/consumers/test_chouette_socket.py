"""Chouettes over real websockets: whole games with 4 players (a house bot among them,
its decisions run by the task queue) and 6 players, scripted dice, team-only chat and
suggestions, a spectator, refusals and a reconnect that resyncs by version."""

import pytest

from games import services
from games.models import Chouette, ChouetteGame
from tests.services.chouette_support import CycleDice, polite, state

from tests.consumers.conftest import db, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _people(n):
    return [await db(services.player_register, username=f"s{i}", password=f"correct horse {i}") for i in range(n)]


async def _open(humans, dice, bot_level=None):
    c = await db(services.chouette_create, player=humans[0])
    for p in humans[1:]:
        await db(services.chouette_join, player=p, chouette_id=c.pk)
    bot = await db(services.chouette_add_bot, chouette_id=c.pk, player=humans[0], level=bot_level) if bot_level else None
    with services.use_dice(CycleDice(dice)):
        await db(services.chouette_start, chouette_id=c.pk, player=humans[0])
    return c, bot


async def _play_games(c, sockets, watchers, games, policy=polite):
    """The humans answer over their sockets until ``games`` more games are over; every
    socket sees every version in order."""
    first = (await db(state, c.pk))[2].games_played
    for _ in range(4000):
        chouette, _row, session, game = await db(state, c.pk)
        if session.games_played >= first + games:
            break
        mine = [p for p in game.pending() if p.player in sockets]
        assert mine, f"waiting for {game.pending()} and no bot acted"
        p = mine[0]
        action, fields = policy(game, p)
        sock = sockets[p.player]
        await sock.send(action, fields, v=chouette.version)
        reply = await sock.until(lambda m: m["t"] == "error" or (m["t"] != "snapshot" and (m.get("v") or 0) > chouette.version))
        assert reply["t"] != "error", reply
    else:
        raise AssertionError("the games did not end")
    final = (await db(Chouette.objects.get, pk=c.pk)).version
    for sock in list(sockets.values()) + watchers:
        await sock.until(lambda m: m.get("v") == final and m["t"] != "snapshot" or (m["t"] == "snapshot" and m["v"] == final),
                         timeout=10)
        versions = [m["v"] for m in sock.received if m["t"] not in ("snapshot", "chat_history", "pong", "chat", "error")
                    and m.get("v") is not None]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)


async def test_four_players_with_a_house_bot_over_sockets(settings):
    settings.GAMES_WS_FLOOD_LIMIT = 10_000
    humans = await _people(4)
    c, bot = await _open(humans[:3], [6, 5, 4, 3, 6, 5], bot_level="beginner")
    sockets = {}
    for p in humans[:3]:
        sock, ok = await open_socket(f"/ws/chouettes/{c.pk}/", p)
        assert ok
        snap = await sock.until(lambda m: m["t"] == "snapshot")
        assert snap["d"]["game"]["box"] == humans[0].pk
        sockets[p.pk] = sock
    watcher, ok = await open_socket(f"/ws/chouettes/{c.pk}/", humans[3])
    assert ok and (await watcher.until(lambda m: m["t"] == "snapshot"))["d"]["role"] == "spectator"

    await watcher.send("double", {}, v=0)
    assert (await watcher.until(lambda m: m["t"] == "error"))["d"]["code"] in ("not_in_game", "stale_version")
    # the team chat reaches the team (captain, crew), not the box nor the spectator
    await sockets[humans[2].pk].send("chat", {"text": "hello team", "room": "team"})
    got = await sockets[humans[1].pk].until(lambda m: m["t"] == "chat")
    assert got["d"]["text"] == "hello team" and got["d"]["room"] == "team"
    await sockets[humans[0].pk].send("chat", {"text": "box speaking", "room": "team"})
    assert (await sockets[humans[0].pk].until(lambda m: m["t"] == "error"))["d"]["code"] == "not_your_room"

    with services.use_dice(CycleDice()):
        await _play_games(c, sockets, [watcher], games=2)
    for sock in [sockets[humans[0].pk], watcher]:
        assert not [m for m in sock.received if m["t"] == "chat" and m["d"]["room"] == "team"]
    c2, _row, session, _game = await db(state, c.pk)
    assert session.games_played >= 2 and sum(p for _w, p in session.scores) == 0
    assert bot.pk in session.line

    # a reconnect with ?v= gets the missing events, then a snapshot
    back, ok = await open_socket(f"/ws/chouettes/{c.pk}/?v={c2.version - 3}", humans[1])
    assert ok
    frames = [await back.next() for _ in range(4)]
    assert [f["v"] for f in frames[:3]] == [c2.version - 2, c2.version - 1, c2.version]
    assert frames[3]["t"] == "snapshot" and frames[3]["v"] == c2.version
    for sock in [*sockets.values(), watcher, back]:
        await sock.close()


async def test_six_players_over_sockets_with_a_double_taken_and_dropped(settings):
    settings.GAMES_WS_FLOOD_LIMIT = 10_000
    humans = await _people(6)
    ids = [p.pk for p in humans]
    c, _ = await _open(humans, [6, 5, 4, 3, 2, 1, 3, 1])  # the box wins the opening
    sockets = {}
    for p in humans:
        sock, ok = await open_socket(f"/ws/chouettes/{c.pk}/", p)
        assert ok
        sockets[p.pk] = sock
    turned = []

    def policy(game, p):
        # the captain and the first crew member double in the first team window; the box
        # takes the captain's cube and drops the other
        if p.reason == "double_decision" and p.player in ids[1:3] and len(turned) < 2:
            turned.append(p.player)
            return "double", {}
        if p.reason == "double_answer" and p.player == ids[0]:
            return ("take" if p.cubes[0] == ids[1] else "drop"), {"cube": p.cubes[0]}
        return polite(game, p)

    with services.use_dice(CycleDice()):
        await _play_games(c, sockets, [], games=2, policy=policy)
    first = await db(lambda: ChouetteGame.objects.get(chouette_id=c.pk, number=1).result)
    cubes = {cube["member"]: cube for cube in first["cubes"]}
    assert cubes[ids[1]]["value"] == 2 and cubes[ids[2]]["end"] == "drop"
    for sock in sockets.values():
        await sock.close()


async def test_a_lost_event_reaches_the_sockets_through_the_delivery_check_and_the_ping():
    from games.realtime import delivery
    from games.events import add_listener, remove_listener
    from games.realtime.bridge import broadcast

    humans = await _people(3)
    c, _ = await _open(humans, [6, 5, 4, 1, 3])  # the team moves first: the captain plays 3-1
    box, ok1 = await open_socket(f"/ws/chouettes/{c.pk}/", humans[0])
    crew, ok2 = await open_socket(f"/ws/chouettes/{c.pk}/", humans[2])
    assert ok1 and ok2
    for sock in (box, crew):
        await sock.until(lambda m: m["t"] == "chat_history")
    version = (await db(Chouette.objects.get, pk=c.pk)).version
    remove_listener(broadcast)  # the layer "loses" what the next commit publishes
    try:
        await db(services.chouette_act, chouette_id=c.pk, player=humans[1], action="move",
                 steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    finally:
        add_listener(broadcast)
    assert await box.versioned_within(0.2) == []  # lost (a presence notice may come)
    assert await delivery.check() == 2  # both sockets were behind
    moved = await box.until(lambda m: m["t"] == "move")
    assert moved["v"] == version + 1
    snap = await box.until(lambda m: m["t"] == "snapshot")
    assert snap["d"]["game"]["phase"] == "cube_window" and snap["d"]["game"]["box"] == humans[0].pk
    assert await delivery.check() == 0
    # an idle ping with an old version gets what it misses, ending with a snapshot
    await crew.until(lambda m: m["t"] == "snapshot")
    await crew.send("ping", {}, v=version)
    await crew.until(lambda m: m["t"] == "pong")
    assert (await crew.until(lambda m: m["t"] == "move"))["v"] == version + 1
    # presence: the crew member's socket closes; the box sees him away
    await crew.close()
    away = await box.until(lambda m: m["t"] == "presence")
    assert away["d"] == {"player": humans[2].pk, "away": True}
    await box.close()


async def test_a_guest_may_not_talk_at_a_public_table(settings):
    """Guests chat only with those they play with: refused (``guest_chat``) at a public
    table and in the spectators' room, allowed at a private table; nothing is stored."""
    from games.models import ChouetteChat

    settings.GAMES_WS_FLOOD_LIMIT = 10_000
    humans = await _people(2)
    match = await db(services.match_create, creator=humans[0], length=3)
    guest, _ = await db(services.guest_join, invite_code=match.invite_code)
    public = await db(services.chouette_create, player=humans[0])
    private = await db(services.chouette_create, player=humans[0], private=True)
    await db(services.chouette_join, player=guest, chouette_id=public.pk)
    await db(services.chouette_join, player=guest, invite_code=private.invite_code)
    watched = await db(services.chouette_create, player=humans[1])  # the guest only watches it

    async def say(c, room=None):
        sock, ok = await open_socket(f"/ws/chouettes/{c.pk}/", guest)
        assert ok
        await sock.until(lambda m: m["t"] == "chat_history")
        await sock.send("chat", {"text": "hello", **({"room": room} if room else {})})
        reply = await sock.until(lambda m: m["t"] in ("chat", "error"))
        await sock.close()
        return reply["d"].get("code") if reply["t"] == "error" else reply["d"]["room"]

    assert await say(public) == "guest_chat"
    assert await say(public, "table") == "guest_chat"
    assert await say(watched) == "guest_chat"  # the spectators' room
    assert not await db(lambda: ChouetteChat.objects.filter(author=guest).exists())
    assert await say(private) == "table"
    assert await db(lambda: ChouetteChat.objects.filter(author=guest).count()) == 1
