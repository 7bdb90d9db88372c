"""At-least-once delivery to the sockets of this web process.

The channel layer delivers at most once, and the lost message may be the last one before
a player's own decision, so a gap on the client is not enough to notice it. Here the
server checks, lichess-style: every second one query reads the current version of every
game this process's sockets follow (and the lobby's version); a socket that has sent its
client less than that is nudged and resends what is missing from the database. Clients
also send the version they hold in an idle ping (docs/PROTOCOL.md, "Delivery"), which
covers what the server cannot see (a connection that died quietly).

The same loop refreshes the presence heartbeat of the process's sockets, a slice each
round (the workers sweep rows whose heartbeat stopped). It is delivery bookkeeping for
this process's own sockets, not a sweep: no game state is changed here.
"""

from __future__ import annotations

import asyncio
import logging
import time

from django.db import DatabaseError

from games.db.calls import db
from games.db.prepared import values_in
from games.models import Chouette, Game
from games.services import presence_heartbeat
from games.selectors.lobby import lobby_version
from games import conf

logger = logging.getLogger(__name__)

_games: dict = {}  # consumer -> what the previous round read for it: (game id, version, newer game?)
_lobbies: dict = {}  # lobby consumer -> the lobby version the previous round read
_chouettes: set = set()  # chouette sockets (``chouette_id``, ``sent``)
_task = None


def interval() -> float:
    return float(conf.value("GAMES_DELIVERY_CHECK"))


def heartbeat_every() -> float:
    return float(conf.value("GAMES_PRESENCE_HEARTBEAT"))


def watch(consumer) -> None:
    """Check ``consumer`` (a game socket with ``game_id``, ``sent``, ``channel_name``) from now on."""
    _games[consumer] = None
    _start()


def watch_lobby(consumer) -> None:
    _lobbies[consumer] = None
    _start()


def watch_chouette(consumer) -> None:
    _chouettes.add(consumer)
    _start()


def unwatch(consumer) -> None:
    _games.pop(consumer, None)
    _lobbies.pop(consumer, None)
    _chouettes.discard(consumer)


def _start() -> None:
    global _task
    if interval() <= 0:
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


class Heartbeat:
    """The presence heartbeat, spread over the rounds: every socket's row is refreshed once
    per ``heartbeat_every()`` s, a slice of them each round, so no round writes thousands of
    rows at once (on SQLite the event loop waits for the write: issue 16)."""

    def __init__(self, now: float):
        self.started, self.todo, self.per_round = now, [], 0

    def due(self, now: float) -> list:
        """The channel names to refresh this round."""
        if not self.todo:
            if now - self.started < heartbeat_every():
                return []
            self.started, self.todo = now, live_channels()
            rounds = max(1, int(heartbeat_every() / max(interval(), 1e-3)) - 1)  # done a round early
            self.per_round = -(-len(self.todo) // rounds)
        names, self.todo = self.todo[:self.per_round], self.todo[self.per_round:]
        return names


async def _run() -> None:
    beat = Heartbeat(time.monotonic())
    while _games or _lobbies or _chouettes:
        await asyncio.sleep(interval())
        try:
            await check()
            names = beat.due(time.monotonic())
            if names:
                await db(presence_heartbeat, names)
        except DatabaseError as exc:  # a database that went away: the next round retries
            logger.warning("delivery check: database error (%s)", type(exc).__name__)
        except Exception:
            logger.exception("delivery check failed")


def _read(game_ids: list, want_lobby: bool) -> tuple:
    versions = {pk: (version, status, match_id) for pk, version, status, match_id
                in values_in(Game, ("pk", "version", "status", "match_id"), "pk", game_ids)}
    finished = [m for (_v, status, m) in versions.values() if status == Game.FINISHED]
    newer = {m for (m,) in values_in(Game, ("match_id",), "match_id", finished, status=Game.PLAYING)}
    return versions, newer, (lobby_version() if want_lobby else None)


async def check() -> int:
    """One round: nudge every socket that is still behind what the *previous* round read
    (an event committed at least one interval ago and not sent: lost, not in flight).
    A socket merely behind now is remembered, not nudged, and so is one with messages
    waiting in the channel layer: under load the sockets of a busy process lag, and
    resending to each of them from the database would only add load (issue 16). So a lost event is resent within two intervals. Returns how many
    were nudged."""
    consumers = [c for c in list(_games) if getattr(c, "game_id", None) is not None]
    lobbies = list(_lobbies)
    nudged = await _check_chouettes()
    if not consumers and not lobbies:
        return nudged
    game_ids = sorted({c.game_id for c in consumers})
    versions, newer, lobby = await db(_read, game_ids, bool(lobbies))
    for consumer in consumers:
        found = versions.get(consumer.game_id)
        if found is None:
            continue
        version, status, match_id = found
        seen = (consumer.game_id, version, status == Game.FINISHED and match_id in newer)
        before = _games.get(consumer)
        if consumer in _games:
            _games[consumer] = seen
        if before is None or before[0] != consumer.game_id or not (before[1] > consumer.sent or before[2]):
            continue  # up to date as of the previous round (most sockets: asked first, it is cheap)
        if _in_flight(consumer):
            continue  # it has messages waiting: it reads them, and a gap in them, itself
        nudged += 1
        await _nudge(consumer, {"type": "delivery.check"})
    for consumer in lobbies:
        before = _lobbies.get(consumer)
        if consumer in _lobbies:
            _lobbies[consumer] = lobby
        if before is not None and before > consumer.sent:
            nudged += 1
            await _nudge(consumer, {"type": "delivery.check"})
    return nudged


def _chouette_versions(ids: list) -> dict:
    return dict(values_in(Chouette, ("pk", "version"), "pk", ids))


async def _check_chouettes() -> int:
    """Chouette sockets behind their chouette's version are nudged to catch up."""
    consumers = [c for c in list(_chouettes) if getattr(c, "chouette_id", None) is not None]
    if not consumers:
        return 0
    versions = await db(_chouette_versions, sorted({c.chouette_id for c in consumers}))
    nudged = 0
    for consumer in consumers:
        if versions.get(consumer.chouette_id, 0) > consumer.sent:
            nudged += 1
            await _nudge(consumer, {"type": "delivery.check"})
    return nudged


def _in_flight(consumer) -> bool:
    """Whether the channel layer holds messages for ``consumer`` not yet handled (a busy
    process's sockets lag; reading the database for each of them would only add load)."""
    pending = getattr(consumer.channel_layer, "pending", None)
    return pending is not None and pending(consumer.channel_name) > 0


async def _nudge(consumer, message: dict) -> None:
    try:
        await consumer.channel_layer.send(consumer.channel_name, message)
    except Exception:  # a full or closed channel: the next round tries again
        pass


def live_channels() -> list:
    return [c.channel_name for c in list(_games)]
