"""The generic surface a server drives a match game with: ``apply(action, color, **fields)``.

The same surface as the chouette's (:mod:`games.engine.chouette.surface`): one entry point
for every player action, a table of the fields each action accepts and requires, and a
refusal (``unknown_action``, ``bad_field``, ``missing_field``) before any rule is asked.
A mixin of :class:`~games.engine.game.GameState`.

>>> from games.engine import GameState, GameRules
>>> state = GameState.new(GameRules()).opening_roll(3, 1)
>>> after = state.apply("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
>>> after.position.board[5], after.phase
(2, 'turn')
>>> state.apply("move", "white", dice=(3, 1))
Traceback (most recent call last):
...
games.engine.errors.IllegalAction: move does not take dice.
"""

from __future__ import annotations

from .errors import IllegalAction
from .phases import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN
from games.engine.errors import gettext_noop

_ANY = (TURN, MOVE, CUBE_OFFERED, RESIGN_OFFERED)

# action name -> (fields it accepts, fields it requires, the method that plays it, the
# phases in which it may be played)
ACTIONS = {
    "roll": (("dice",), ("dice",), "roll", (TURN,)),
    "move": (("moves",), ("moves",), "move", (MOVE,)),
    "double": ((), (), "double", (TURN,)),
    "take": ((), (), "take", (CUBE_OFFERED,)),
    "drop": ((), (), "drop", (CUBE_OFFERED,)),
    "beaver": ((), (), "beaver", (CUBE_OFFERED,)),
    "raccoon": ((), (), "raccoon", (TURN,)),
    "resign_offer": (("level",), ("level",), "offer_resignation", (TURN, MOVE)),
    "resign_accept": ((), (), "accept_resignation", (RESIGN_OFFERED,)),
    "resign_reject": ((), (), "reject_resignation", (RESIGN_OFFERED,)),
    "resign": ((), (), "resign", _ANY),
}


def check_fields(action: str, fields: dict, accepted: tuple, required: tuple) -> None:
    """Refuse fields an action does not take (``bad_field``) or lacks (``missing_field``)
    before any rule is asked: the match's and the chouette's surfaces alike."""
    extra = sorted(set(fields) - set(accepted))
    if extra:
        raise IllegalAction("bad_field", gettext_noop("%(action)s does not take %(value)s."),
                params={"action": action, "value": ', '.join(extra)})
    missing = [f for f in required if f not in fields]
    if missing:
        raise IllegalAction("missing_field", gettext_noop("%(action)s needs %(value)s."),
                params={"action": action, "value": ', '.join(missing)})


class Surface:
    """``apply``: one entry point for every action of :data:`ACTIONS`."""

    def apply(self, action: str, color: str, **fields):
        """The state after ``color`` plays ``action`` with its ``fields`` (``moves`` for a move,
        ``dice`` for a roll, ``level`` for a resignation offer). Raises IllegalAction (or
        IllegalPlay / InvalidPlay for a move)."""
        spec = ACTIONS.get(action)
        if spec is None:
            raise IllegalAction("unknown_action", gettext_noop("Unknown action %(action)s."),
                    params={"action": repr(action)})
        accepted, required, method, _phases = spec
        check_fields(action, fields, accepted, required)
        if action == "move":
            return self.move(color, fields["moves"])
        return getattr(self, method)(color, *(fields[name] for name in accepted))


__all__ = ["ACTIONS", "Surface", "check_fields"]
