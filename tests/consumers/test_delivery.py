"""At-least-once delivery (docs/PROTOCOL.md, "Delivery"): whatever the channel layer loses,
a socket's client catches up, from the server's own check or from its idle ping. And
presence heals after a crash. Messages are "lost" by taking the broadcaster off the
events, the way a layer loses them: the database has them, the sockets never hear."""

from datetime import timedelta

import pytest

from games import clock, conf, services
from games.realtime import delivery
from games.dice import ScriptedDice
from games.events import add_listener, remove_listener
from games.models import Connection, Match
from games.realtime.bridge import broadcast
from tests.consumers.conftest import current, db, open_socket
from games.selectors import social

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

PLAY_31 = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]


class lost:
    """Within the block, committed events never reach the channel layer."""

    def __enter__(self):
        remove_listener(broadcast)

    def __exit__(self, *exc):
        add_listener(broadcast)


async def _start(alice, bob, length=1):
    """A 1-point match (no cube: every turn's roll is automatic), White to play 3-1."""
    match = await db(services.match_create, creator=alice, length=length)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        await db(services.match_join, player=bob, match_id=match.pk)
    game, _ = await current(match.pk)
    return match, game


async def test_a_lost_last_event_reaches_both_sockets_through_the_servers_check(people):
    """The case that stalled players: the opponent's move and the automatic roll that ends
    it are lost; nothing later reveals a gap. The server's check finds them."""
    alice, bob, carol = people
    match, game = await _start(alice, bob)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    black, _ = await open_socket(f"/ws/games/{game.pk}/", bob)
    for sock in (white, black):
        await sock.until(lambda m: m["t"] == "chat_history")
    with lost(), services.use_dice(ScriptedDice([(6, 5)])):
        await db(services.game_move, game_id=game.pk, player=alice, moves=PLAY_31, expected_version=game.version)
    assert await black.versioned_within(0.2) == []  # lost: no event came (a presence notice may)
    assert await delivery.check() == 0  # behind, but maybe in flight: remembered, not nudged yet
    assert await delivery.check() == 2  # still behind one round later: both sockets are nudged
    move = await black.until_version(game.version + 1)
    roll = await black.until_version(game.version + 2)
    assert move["t"] == "move" and roll["t"] == "roll" and roll["d"]["auto"]
    assert roll["legalMoves"] and roll["state"]["actor"] == "black"  # what Black needs to play
    assert (await white.until_version(game.version + 2))["t"] == "roll"
    assert await delivery.check() == 0  # nobody is behind any more
    await white.close()
    await black.close()


async def test_a_client_that_pings_with_an_old_version_gets_what_it_missed(people):
    alice, bob, _ = people
    match, game = await _start(alice, bob)
    black, _ = await open_socket(f"/ws/games/{game.pk}/?v={game.version}", bob)
    await black.until(lambda m: m["t"] == "chat_history")
    with services.use_dice(ScriptedDice([(6, 5)])):
        await db(services.game_move, game_id=game.pk, player=alice, moves=PLAY_31, expected_version=game.version)
    await black.until_version(game.version + 2)
    # The client says it holds the version before the move (its frames were lost on the way):
    await black.comm.send_json_to({"t": "ping", "d": {}, "v": game.version, "game": game.pk})
    pong = await black.until(lambda m: m["t"] == "pong")
    assert pong["d"] == {"game": game.pk, "v": game.version + 2}
    again = await black.until(lambda m: m.get("v") == game.version + 2 and m["t"] == "roll" and m is not pong)
    assert again["legalMoves"]
    await black.close()


async def test_a_gap_makes_the_socket_read_the_rest_from_the_database(people):
    """An event lost on the way, then a later one arrives: the socket fills the gap itself,
    in order, before forwarding the later one."""
    alice, bob, _ = people
    match, game = await _start(alice, bob)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    await white.until(lambda m: m["t"] == "chat_history")
    with lost(), services.use_dice(ScriptedDice([(6, 5)])):
        await db(services.game_move, game_id=game.pk, player=alice, moves=PLAY_31, expected_version=game.version)
    state = (await current(match.pk))[1]
    with services.use_dice(ScriptedDice([(2, 1)])):
        await db(services.game_move, game_id=game.pk, player=bob, moves=state.legal_plays()[0].to_list(),
                 expected_version=game.version + 2)
    got = []
    while len(got) < 4:  # the game events, in order (a presence notice may come in between)
        message = await white.next()
        if message.get("v") is not None:
            got.append(message)
    assert [m["v"] for m in got] == [game.version + i for i in (1, 2, 3, 4)]
    assert got[-1]["t"] == "roll" and got[-1]["legalMoves"]
    await white.close()


async def test_the_lobby_resends_what_it_lost(people):
    alice, bob, carol = people
    lobby, _ = await open_socket("/ws/lobby/")
    first = await lobby.next()
    with lost():
        match = await db(services.match_create, creator=carol, length=5)
    assert await lobby.versioned_within(0.2) == []
    assert await delivery.check() == 0  # the first round only notes who is behind
    assert await delivery.check() >= 1
    again = await lobby.until(lambda m: m["t"] == "lobby")
    assert again["v"] == first["v"] + 1 and [m["id"] for m in again["d"]["open"]] == [match.pk]
    # And a ping from behind is answered with the whole lobby too.
    await lobby.comm.send_json_to({"t": "ping", "d": {}, "v": first["v"]})
    assert (await lobby.until(lambda m: m["t"] == "lobby"))["v"] == again["v"]
    await lobby.close()


async def test_presence_heals_after_a_crash_and_the_claim_works(people, settings):
    """A web process killed with its sockets leaves presence rows behind: they stop beating,
    the workers' sweep removes them, the player shows as away and can be claimed against."""
    alice, bob, _ = people
    match, game = await _start(alice, bob)

    def crash():
        services.presence_join(match_id=match.pk, channel_name="specific.dead!abc", player=bob, role="black")
        Connection.objects.filter(channel_name="specific.dead!abc").update(
            seen_at=clock.now() - timedelta(minutes=5))  # the process holding it died: no heartbeat

    await db(crash)
    assert (await db(social.presence_dict, await db(Match.objects.get, pk=match.pk)))["black"]["connected"]
    assert await db(services.sweep_presence) == 1
    fresh = await db(Match.objects.get, pk=match.pk)
    assert fresh.black_away_since is not None
    assert not (await db(social.presence_dict, fresh))["black"]["connected"]
    with clock.freeze(fresh.black_away_since + timedelta(seconds=conf.value("GAMES_ABSENCE_GRACE") + 1)):
        claimed = await db(services.match_claim, match_id=match.pk, player=alice)
    assert claimed.status == Match.FINISHED and claimed.winner_id == alice.pk


async def test_a_live_socket_keeps_its_presence_through_the_heartbeat(people):
    alice, bob, _ = people
    match, game = await _start(alice, bob)
    white, _ = await open_socket(f"/ws/games/{game.pk}/", alice)
    await white.until(lambda m: m["t"] == "presence")
    await db(lambda: Connection.objects.update(seen_at=clock.now() - timedelta(minutes=5)))
    assert await db(services.presence_heartbeat, delivery.live_channels()) == 1
    assert await db(services.sweep_presence) == 0  # it beat: nothing to sweep
    await white.close()


async def test_the_heartbeat_refreshes_every_socket_once_a_period_a_slice_a_round(settings, monkeypatch):
    settings.GAMES_DELIVERY_CHECK, settings.GAMES_PRESENCE_HEARTBEAT = 1.0, 15.0
    names = [f"specific.p!{i}" for i in range(2000)]
    monkeypatch.setattr(delivery, "live_channels", lambda: list(names))
    beat = delivery.Heartbeat(now=0.0)
    assert beat.due(14.0) == []  # joining refreshed them
    slices = [beat.due(15.0 + r) for r in range(15)]
    assert sorted(n for s in slices for n in s) == sorted(names)  # every socket, once
    assert max(len(s) for s in slices) <= 2000 // 10  # never all at once
    assert beat.due(29.0) == [] and beat.due(30.0) != []  # the next period, 15 s after the last
