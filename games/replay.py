"""Rebuild a game's state from its events (the event log is the source of truth).

Pure: takes ``(type, payload)`` pairs as stored in ``GameEvent`` and applies
them to the engine. Used by tests to prove the log is complete, by the admin
and the replay viewer, and by the .mat export.
"""

from __future__ import annotations

from .engine import GameRules, GameState, Position

# event type -> how it changes the engine state
_APPLY = {
    "opening_roll": lambda s, d: s.opening_roll(d["white"], d["black"]),
    "roll": lambda s, d: s.roll(d["color"], tuple(d["dice"])),
    "move": lambda s, d: s.move(d["color"], d["moves"]),
    "double": lambda s, d: s.double(d["color"]),
    "take": lambda s, d: s.take(d["color"]),
    "drop": lambda s, d: s.drop(d["color"]),
    "beaver": lambda s, d: s.beaver(d["color"]),
    "raccoon": lambda s, d: s.raccoon(d["color"]),
    "resign_offer": lambda s, d: s.offer_resignation(d["color"], d["level"]),
    "resign_accept": lambda s, d: s.accept_resignation(d["color"]),
    "resign_reject": lambda s, d: s.reject_resignation(d["color"]),
    "resign": lambda s, d: s.resign(d["color"]),
    "forfeit": lambda s, d: s.forfeit(d["color"]),
    "abort": lambda s, d: s.abort(),
}

# events that inform but do not change the rules state
INFORMATIONAL = {"game_end", "rematch_offer", "rematch_start"}


def replay_events(events) -> GameState:
    """Apply ``events`` (dicts with ``t``/``d`` or ``type``/``payload``, in version
    order, starting with ``game_start``) and return the resulting state."""
    state = None
    for event in events:
        kind = event.get("t", event.get("type"))
        data = event.get("d", event.get("payload"))
        if kind == "game_start":
            state = GameState.new(GameRules.from_dict(data["rules"]), Position.from_dict(data["position"]))
            continue
        if state is None:
            raise ValueError("The event log must start with game_start.")
        if kind in INFORMATIONAL:
            continue
        try:
            apply = _APPLY[kind]
        except KeyError:
            raise ValueError(f"Unknown event type {kind!r}.") from None
        state = apply(state, data)
    if state is None:
        raise ValueError("No game_start event.")
    return state


def replay_steps(events):
    """Yield ``(event, state_after)`` for every event, for viewers and exports."""
    state = None
    for event in events:
        kind = event.get("t", event.get("type"))
        data = event.get("d", event.get("payload"))
        if kind == "game_start":
            state = GameState.new(GameRules.from_dict(data["rules"]), Position.from_dict(data["position"]))
        elif kind not in INFORMATIONAL:
            state = _APPLY[kind](state, data)
        yield event, state
