"""What the services publish after a commit, built once, and each viewer's copy of it.

An action's events are an explicit list: :class:`Envelope` (a stored ``GameEvent`` with
the state after it and, on the last event of a game, the legal plays of the side on
roll), gathered in a :class:`Batch` with what else the commit changed (the lobby entry,
whose turn it is next). :func:`publish_on_commit` hands the batch to the listeners once
the transaction commits (never for a rolled-back one); :func:`frame` is the one place that
filters an envelope for a viewer. Catch-up after a reconnect or a lost message builds the
same envelopes from the stored rows (:func:`envelope`), so live and replayed events are
one shape.

Listeners (registered in ``GamesConfig.ready``): ``games.realtime.bridge`` sends batches to the
channel layer; ``games.tasks`` schedules house-bot turns and clock deadlines.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from django.db import transaction

logger = logging.getLogger(__name__)

_listeners: list = []

# Groups of the channel layer: one per match (every game of it, chat, presence), the lobby.
LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def chouette_group(chouette_id: int) -> str:
    return f"chouette.{chouette_id}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def player_group(player_id: int) -> str:
    """One player's open pages (the header's socket, ``/ws/me/``): notices meant for them."""
    return f"player.{player_id}"


@dataclass(frozen=True)
class Envelope:
    """One game event as it goes out: ``{"t", "v", "d", "game"}`` plus, when known, the
    state after it and the legal plays of the side that must now move."""

    game: int
    v: int
    t: str
    d: dict
    actor: int | None = None
    at: str | None = None
    state: dict | None = None
    legal_json: str | None = None  # the legal plays as JSON text (``games.engine.plays_json``)
    legal_for: str | None = None  # the colour (or seat) the legal plays are for


def envelope(row, *, state: dict | None = None, legal_json: str | None = None,
             legal_for: str | None = None) -> Envelope:
    """The envelope of a stored ``GameEvent`` row."""
    return Envelope(game=row.game_id, v=row.version, t=row.type, d=row.payload, actor=row.actor_id,
                    at=row.created_at.isoformat() if row.created_at else None,
                    state=state, legal_json=legal_json, legal_for=legal_for if legal_json is not None else None)


def dumps(data) -> str:
    """The site's frames as JSON text: compact, as every socket sends them."""
    return json.dumps(data, separators=(",", ":"))


def _common(env: Envelope) -> dict:
    out = {"t": env.t, "v": env.v, "d": env.d, "game": env.game}
    if env.state is not None:
        out["state"] = env.state
    return out


def _for(env: Envelope, viewer: str | None) -> bool:
    return env.legal_json is not None and viewer is not None and viewer == env.legal_for


def frame(env: Envelope, viewer: str | None, common: str | None = None) -> str:
    """``env`` as ``viewer`` (a colour, or None for a spectator) receives it, as the text sent:
    the legal plays go only to the side that must play them, spliced in as the text they
    were built as (the one large part of a frame; ``legalMoves`` is its last key).
    ``common`` is the frame without them, when the caller has it already."""
    if common is None:
        common = dumps(_common(env))
    if not _for(env, viewer):
        return common
    return common[:-1] + ',"legalMoves":' + env.legal_json + "}"



@dataclass(frozen=True)
class BotTurn:
    """A house bot must act in a match game at ``version`` (the workers play it)."""

    game: int
    version: int
    level: str


@dataclass(frozen=True)
class Deadline:
    """A match game's clock runs out at ``at`` unless it moves past ``version``."""

    game: int
    version: int
    at: object  # datetime


@dataclass(frozen=True)
class ChouetteWork:
    """After a chouette action: house bots that must decide, and when the pending cube
    decisions time out (None: no deadline)."""

    chouette: int
    version: int
    bots: bool
    deadline: object | None = None  # datetime


@dataclass
class Batch:
    """Everything one committed transaction publishes, for one match or one chouette: the
    events for its channel-layer ``group``, the notices (chat, presence), the lobby message
    when the lobby entry changed, and the work it leaves to the workers (typed: one of
    :class:`BotTurn`, :class:`Deadline`, :class:`ChouetteWork`)."""

    group: str
    events: list = field(default_factory=list)  # Envelopes, in order (games in number order)
    lobby: dict | None = None  # a lobby message, when the match's lobby entry changed
    notices: list = field(default_factory=list)  # {"t", "d", ...}: chat, presence...
    work: list = field(default_factory=list)  # BotTurn, Deadline, ChouetteWork

    @property
    def target(self) -> str:  # the one place a batch's group is read (games.realtime.bridge)
        return self.group


def add_listener(listener) -> None:
    """Call ``listener(batch)`` for every :class:`Batch` after its transaction commits."""
    if listener not in _listeners:
        _listeners.append(listener)


def remove_listener(listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def dispatch(batch: Batch) -> None:
    """Hand ``batch`` to every listener now (after the commit)."""
    for listener in list(_listeners):
        try:
            listener(batch)
        except Exception:  # a broken listener must not break the others
            logger.exception("event listener %r failed for %s", listener, batch.group)


def publish_on_commit(batch: Batch) -> None:
    """Dispatch ``batch`` once the current transaction commits."""
    transaction.on_commit(lambda: dispatch(batch))


def notice_on_commit(group: str, message: dict) -> None:
    """Publish a message that is not a game event (chat, presence) to ``group`` after commit."""
    publish_on_commit(Batch(group=group, notices=[message]))
