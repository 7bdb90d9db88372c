"""The vocabulary of game actions: one table, read by every adapter.

Each :class:`Action` names a player action, the fields a client sends with it, the engine
call that performs it and the event it writes (with that event's payload). The websocket
consumer, the bot API, the house bots, the services and the replay of stored events all
look actions up here; nobody keeps a table of their own. The bot API's names from seed 000
(``accept``, ``reject``) are aliases (:data:`ALIASES`).

Pure: the engine and the standard library only.

>>> ACTIONS["move"].fields
('moves',)
>>> lookup("accept").name
'resign_accept'
>>> sorted(ACTIONS) == sorted(name for name in ACTIONS if lookup(name).name == name)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN, GameRules, GameState, Position
from games.engine.notation import format_play
from games.engine.scoring import LEVEL_OF_KIND



class UnknownAction(LookupError):
    """No action of that name (adapters answer it with their own ``unknown``/``bad_action`` code)."""


class MissingField(ValueError):
    def __init__(self, action: str, name: str):
        super().__init__(f"'{action}' needs '{name}'.")
        self.action, self.field = action, name


@dataclass(frozen=True)
class Action:
    """One player action.

    ``run(state, colour, fields)`` is the engine call (``fields`` holds the action's fields
    by name, and ``dice`` for a roll: the services supply those); ``payload(before, after,
    colour, fields)`` the written event's payload besides ``color``. The event type is the
    action's name.
    """

    name: str
    run: Callable
    phases: tuple  # the phases of the game in which the action may be played
    fields: tuple = ()
    payload: Callable | None = None
    rolls: bool = False  # the services roll the dice and pass them as fields["dice"]

    def take_fields(self, data: dict) -> dict:
        """The action's fields from a client's ``data`` (:class:`MissingField` when one is absent)."""
        out = {}
        for name in self.fields:
            if name not in data:
                raise MissingField(self.name, name)
            out[name] = data[name]
        return out

    def event_payload(self, before: GameState, after: GameState, color: str, fields: dict) -> dict:
        extra = self.payload(before, after, color, fields) if self.payload else {}
        return {"color": color, **extra}

    def replay(self, state: GameState, payload: dict) -> GameState:
        """Apply a stored event of this action to ``state``."""
        return self.run(state, payload["color"], payload)


def _move_payload(before, after, color, fields):
    return {"moves": [s.to_dict() for s in after.last_play], "dice": list(before.dice),
            "notation": format_play(before.position, after.last_play)}


def _cube_value(before, after, color, fields):
    return {"cubeValue": after.cube_value}


def _resign_level(before, after, color, fields):
    return {"level": LEVEL_OF_KIND[after.result.kind]}


_ANY = (TURN, MOVE, CUBE_OFFERED, RESIGN_OFFERED)

_ALL = [
    Action("roll", lambda s, c, f: s.roll(c, tuple(f["dice"])), (TURN,), rolls=True,
           payload=lambda b, a, c, f: {"dice": list(a.dice), "counter": f["counter"], "auto": f.get("auto", False)}),
    Action("move", lambda s, c, f: s.move(c, f["moves"]), (MOVE,), fields=("moves",), payload=_move_payload),
    Action("double", lambda s, c, f: s.double(c), (TURN,), payload=lambda b, a, c, f: {"cubeValue": b.cube_value * 2}),
    Action("take", lambda s, c, f: s.take(c), (CUBE_OFFERED,), payload=_cube_value),
    Action("drop", lambda s, c, f: s.drop(c), (CUBE_OFFERED,)),
    Action("beaver", lambda s, c, f: s.beaver(c), (CUBE_OFFERED,), payload=_cube_value),
    Action("raccoon", lambda s, c, f: s.raccoon(c), (TURN,), payload=_cube_value),
    Action("resign_offer", lambda s, c, f: s.offer_resignation(c, f["level"]), (TURN, MOVE), fields=("level",),
           payload=lambda b, a, c, f: {"level": f["level"]}),
    Action("resign_accept", lambda s, c, f: s.accept_resignation(c), (RESIGN_OFFERED,)),
    Action("resign_reject", lambda s, c, f: s.reject_resignation(c), (RESIGN_OFFERED,)),
    Action("resign", lambda s, c, f: s.resign(c), _ANY, payload=_resign_level),
]

#: Every player action by name.
ACTIONS: dict = {action.name: action for action in _ALL}

#: The bot API's names (seed 000) for actions that have another name here.
ALIASES = {"accept": "resign_accept", "reject": "resign_reject"}


def lookup(name) -> Action:
    """The action called ``name`` (or one of its aliases); :class:`UnknownAction` otherwise."""
    if isinstance(name, str):
        action = ACTIONS.get(ALIASES.get(name, name))
        if action is not None:
            return action
    raise UnknownAction(name)


def api_names() -> list:
    """The names the bot API accepts: seed 000's (aliases instead of their targets), then the rest."""
    hidden = set(ALIASES.values())
    return [name for name in ACTIONS if name not in hidden] + list(ALIASES)


# -- replay: the events that are not player actions -------------------------------------------

# Events written by the server itself, and how they change the rules state.
SYSTEM_EVENTS = {
    "opening_roll": lambda s, d: s.opening_roll(d["white"], d["black"]),
    "forfeit": lambda s, d: s.forfeit(d["color"]),
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


# -- the chouette's actions (games.engine.chouette; docs/CHOUETTE.md) --------------------------

from games.engine.chouette import ACTIONS as _CHOUETTE_ENGINE_ACTIONS  # noqa: E402

#: Actions a chouette player sends: name -> the fields it accepts. ``roll`` takes none (the
#: services roll the dice); the server's own ``opening_roll`` and ``timeout`` are not here.
CHOUETTE_ACTIONS = {
    name: tuple(f for f in accepted if not (name == "roll" and f == "dice"))
    for name, (accepted, _required) in _CHOUETTE_ENGINE_ACTIONS.items()
    if name not in ("opening_roll", "timeout")
}
#: Field names clients may use for the engine's (``moves`` as in the match protocol).
CHOUETTE_FIELD_ALIASES = {"moves": "steps"}
#: Chouette actions several players may send at the same moment (answers to doubles,
#: settlements): a stale version does not refuse them; the engine refuses one that no
#: longer applies (``already_answered``, ``no_offer``, ...).
CHOUETTE_UNORDERED = frozenset({"take", "drop", "beaver", "raccoon", "no_raccoon", "propose_settlement",
                                "accept_settlement", "reject_settlement", "withdraw_settlement"})
#: Chouette actions that are not the engine's: the table's own.
CHOUETTE_TABLE_ACTIONS = ("suggest",)


def chouette_fields(name, data: dict) -> dict:
    """The engine fields of chouette action ``name`` from a client's ``data`` (unknown keys
    are dropped; :class:`UnknownAction` for an unknown name)."""
    if not isinstance(name, str) or name not in CHOUETTE_ACTIONS:
        raise UnknownAction(name)
    accepted = CHOUETTE_ACTIONS[name]
    out = {}
    for key, value in data.items():
        key = CHOUETTE_FIELD_ALIASES.get(key, key)
        if key in accepted:
            out[key] = value
    return out
