"""The vocabulary of player actions: one registry, read by every adapter, for matches and
chouettes alike.

Each :class:`Action` names a player action of one kind of table (:data:`MATCH` or
:data:`CHOUETTE`), the fields a client sends with it, whether the server rolls for it,
whether several players may send it at the same moment (``unordered``: an answer to a
double, a settlement), and the payload of the event it writes. The engine plays it through
the one surface both games share, ``state.apply(name, actor, **fields)``
(``games.engine.surface``, ``games.engine.chouette.surface``). The websocket consumers, the
bot API, the house bots, the services and the replay of stored events all look actions up
here; nobody keeps a table of their own. Old client names are aliases: seed 000's
``accept``/``reject`` for resignations, and ``moves`` for a chouette move's ``steps``.

Pure: the engine and the standard library only.

>>> lookup("move").fields
('moves',)
>>> lookup("accept").name
'resign_accept'
>>> lookup("take", CHOUETTE).unordered, lookup("move", CHOUETTE).take_fields({"moves": []})
(True, {'steps': []})
>>> lookup("buy")
Traceback (most recent call last):
...
games.engine.actions.UnknownAction: buy
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import GameRules, GameState, Position
from .chouette import ACTIONS as CHOUETTE_SURFACE
from .notation import format_play
from .scoring import LEVEL_OF_KIND
from .surface import ACTIONS as MATCH_SURFACE

MATCH, CHOUETTE = "match", "chouette"


class UnknownAction(LookupError):
    """No action of that name (adapters answer it with their own ``unknown``/``bad_action`` code)."""


class MissingField(ValueError):
    def __init__(self, action: str, name: str):
        super().__init__(f"'{action}' needs '{name}'.")
        self.action, self.field = action, name


@dataclass(frozen=True)
class Action:
    """One player action of one kind of table.

    ``fields`` are the engine's names of the fields a client may send (``required`` the
    ones it must); ``aliases`` maps a client's older name of a field to the engine's.
    ``payload(before, after, actor, fields)`` is the written event's payload (besides the
    actor); the event type is the action's name.
    """

    name: str
    table: str
    fields: tuple = ()
    required: tuple = ()
    rolls: bool = False  # the server rolls the dice and passes them as fields["dice"]
    unordered: bool = False  # a stale version does not refuse it (the engine refuses one that no longer applies)
    aliases: tuple = ()  # ((client name, engine name), ...)
    payload: Callable | None = None
    phases: tuple = ()  # a match action: the phases of the game in which it may be played

    def take_fields(self, data: dict) -> dict:
        """The action's fields from a client's ``data`` (unknown keys are dropped;
        :class:`MissingField` when a required one is absent)."""
        names = dict(self.aliases)
        out = {}
        for key, value in data.items():
            key = names.get(key, key)
            if key in self.fields and not (self.rolls and key == "dice"):
                out[key] = value
        if self.table == MATCH:  # a chouette's engine refuses a missing field itself (missing_field)
            for name in self.required:
                if name not in out and not (self.rolls and name == "dice"):
                    raise MissingField(self.name, name)
        return out

    def accepts(self, key: str) -> bool:
        """Whether a client may send field ``key`` (or one of its aliases) with this action."""
        key = dict(self.aliases).get(key, key)
        return key in self.fields and not (self.rolls and key == "dice")

    def run(self, state, actor, fields: dict):
        """The engine's state after the action (``fields`` by engine name, ``dice`` for a roll)."""
        return state.apply(self.name, actor, **{k: v for k, v in fields.items() if k in self.fields})

    def event_payload(self, before, after, actor, fields: dict) -> dict:
        extra = self.payload(before, after, actor, fields) if self.payload else {}
        return {"color": actor, **extra} if self.table == MATCH else extra

    def replay(self, state: GameState, payload: dict) -> GameState:
        """Apply a stored match event of this action to ``state``."""
        return self.run(state, payload["color"], payload)


# -- what the events of a match say ------------------------------------------------------------


def _move_payload(before, after, color, fields):
    return {"moves": [s.to_dict() for s in after.last_play], "dice": list(before.dice),
            "notation": format_play(before.position, after.last_play)}


def _cube_value(before, after, color, fields):
    return {"cubeValue": after.cube_value}


_MATCH_PAYLOADS = {
    "roll": lambda b, a, c, f: {"dice": list(a.dice), "counter": f["counter"], "auto": f.get("auto", False)},
    "move": _move_payload,
    "double": lambda b, a, c, f: {"cubeValue": b.cube_value * 2},
    "take": _cube_value,
    "beaver": _cube_value,
    "raccoon": _cube_value,
    "resign_offer": lambda b, a, c, f: {"level": f["level"]},
    "resign": lambda b, a, c, f: {"level": LEVEL_OF_KIND[a.result.kind]},
}


# -- what the events of a chouette say --------------------------------------------------------


def _chouette_payload(before, after, player, fields: dict) -> dict:
    out = {}
    for key, value in fields.items():
        if key == "steps":
            value = [s.to_dict() for s in after.last_play]
        elif key == "dice":
            value = list(value)
        out[key] = value
    if "steps" in fields:
        out["dice"] = list(before.dice)
    return out


# Chouette actions several players may send at the same moment (answers to doubles,
# settlements): a stale version does not refuse them.
_CHOUETTE_UNORDERED = {"take", "drop", "beaver", "raccoon", "no_raccoon", "propose_settlement",
                       "accept_settlement", "reject_settlement", "withdraw_settlement"}
_SERVER_ONLY = {"opening_roll", "timeout"}  # chouette engine actions no client sends


def _registry() -> dict:
    out = {}
    for name, (accepted, required, _method, phases) in MATCH_SURFACE.items():
        out[(MATCH, name)] = Action(name, MATCH, fields=accepted, required=required, rolls="dice" in accepted,
                                    payload=_MATCH_PAYLOADS.get(name), phases=phases)
    for name, (accepted, required) in CHOUETTE_SURFACE.items():
        if name in _SERVER_ONLY:
            continue
        out[(CHOUETTE, name)] = Action(name, CHOUETTE, fields=accepted, required=required,
                                       rolls="dice" in accepted, unordered=name in _CHOUETTE_UNORDERED,
                                       aliases=(("moves", "steps"),), payload=_chouette_payload)
    return out


REGISTRY = _registry()
#: The bot API's names (seed 000) for match actions that have another name here.
ALIASES = {"accept": "resign_accept", "reject": "resign_reject"}


def actions_of(table: str = MATCH) -> dict:
    """Every action of ``table`` by name."""
    return {name: action for (kind, name), action in REGISTRY.items() if kind == table}


#: Every match action by name, and every chouette action by name.
ACTIONS = actions_of(MATCH)
CHOUETTE_ACTIONS = actions_of(CHOUETTE)


def lookup(name, table: str = MATCH) -> Action:
    """The action of ``table`` called ``name`` (or one of its aliases); :class:`UnknownAction` otherwise."""
    if isinstance(name, str):
        action = REGISTRY.get((table, ALIASES.get(name, name) if table == MATCH else name))
        if action is not None:
            return action
    raise UnknownAction(name)


def api_names(table: str = MATCH) -> list:
    """The names clients send: seed 000's (aliases instead of their targets), then the rest."""
    if table != MATCH:
        return list(actions_of(table))
    hidden = set(ALIASES.values())
    return [name for name in ACTIONS if name not in hidden] + list(ALIASES)


# -- replay: the events that are not player actions -------------------------------------------

# Events written by the server itself, and how they change the rules state.
SYSTEM_EVENTS = {
    "opening_roll": lambda s, d: s.opening_roll(d["white"], d["black"]),
    "forfeit": lambda s, d: s.forfeit(d["color"], scored=d.get("scored", True)),
    "abort": lambda s, d: s.abort(),
}
#: Events that inform but do not change the rules state.
INFORMATIONAL = frozenset({"game_end", "rematch_offer", "rematch_start"})


def apply_event(state: GameState | None, kind: str, data: dict) -> GameState:
    """The state after a stored event (``game_start`` starts from ``None``)."""
    if kind == "game_start":
        return GameState.new(GameRules.from_dict(data["rules"]), Position.from_dict(data["position"]))
    if state is None:
        raise ValueError("The event log must start with game_start.")
    if kind in INFORMATIONAL:
        return state
    if kind in SYSTEM_EVENTS:
        return SYSTEM_EVENTS[kind](state, data)
    if kind in ACTIONS:
        return ACTIONS[kind].replay(state, data)
    raise ValueError(f"Unknown event type {kind!r}.")
