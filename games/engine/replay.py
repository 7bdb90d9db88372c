"""Rebuild a game's state from its events (the event log is the source of truth).

Pure: takes ``(type, payload)`` pairs as stored in ``GameEvent`` and applies them to the
engine through the one table of actions (``games.engine.actions``). Used by tests to prove the
log is complete, by the admin and the replay viewer, and by the .mat export.
"""

from __future__ import annotations

from .actions import apply_event
from . import GameState


def _kind_and_data(event) -> tuple:
    return event.get("t", event.get("type")), event.get("d", event.get("payload"))


def replay_events(events) -> GameState:
    """Apply ``events`` (dicts with ``t``/``d`` or ``type``/``payload``, in version
    order, starting with ``game_start``) and return the resulting state."""
    state = None
    for event in events:
        state = apply_event(state, *_kind_and_data(event))
    if state is None:
        raise ValueError("No game_start event.")
    return state


def replay_steps(events):
    """Yield ``(event, state_after)`` for every event, for viewers and exports."""
    state = None
    for event in events:
        state = apply_event(state, *_kind_and_data(event))
        yield event, state
