"""The generic surface a server drives a chouette game with, knowing no rule.

- :meth:`pending`: who the game waits for now, each with a stable reason and
  the cubes concerned; :meth:`actor_set`: just the players.
- :meth:`allowed_actions`: every action name a player may send now (settlement
  offers and ``leave`` included; they never hold the game up).
- :meth:`apply`: one entry point, ``apply(action, player, **fields)``, for
  every action of :data:`ACTIONS`.
- :meth:`timeout_answer` / :meth:`timeout`: the safe answers of an absent
  player's pending cube decisions (docs/CHOUETTE.md, "Timeouts").

A mixin of :class:`~games.engine.chouette.game.ChouetteGame`.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import IllegalAction
from ..surface import check_fields
from .records import Pending
from .rules import (
    ANSWERS,
    BUY,
    CUBE_WINDOW,
    DROPPED,
    LAST_MEMBER,
    MOVE,
    OFFERED,
    OPEN_STAGES,
    OPENING,
    R_BUY_DECISION,
    R_DOUBLE_ANSWER,
    R_DOUBLE_DECISION,
    R_LAST_MEMBER,
    R_MOVE,
    R_OPENING_ROLL,
    R_RACCOON_DECISION,
    R_ROLL,
    ROLL,
)
from games.engine.errors import gettext_noop

# action name -> (fields it accepts, fields it requires)
ACTIONS = {
    "opening_roll": (("box_die", "team_die"), ("box_die", "team_die")),
    "double": (("cubes",), ()),
    "no_double": ((), ()),
    "take": (("cube",), ()),
    "drop": (("cube",), ()),
    "beaver": (("cube",), ()),
    "raccoon": (("cube",), ()),
    "no_raccoon": (("cube",), ()),
    "buy": (("cube",), ()),
    "no_buy": (("cube",), ()),
    "buy_all": ((), ()),
    "roll": (("dice",), ("dice",)),
    "move": (("steps",), ("steps",)),
    "propose_settlement": (("amount", "cubes"), ("amount",)),
    "accept_settlement": (("cube",), ()),
    "reject_settlement": (("cube",), ()),
    "withdraw_settlement": (("cube",), ()),
    "leave": ((), ()),
    "timeout": ((), ()),
}
_CAMEL = {"boxDie": "box_die", "teamDie": "team_die"}

# what each pending reason lets its player answer, and the safe answer
REASON_ACTIONS = {
    R_OPENING_ROLL: ("opening_roll",),
    R_DOUBLE_DECISION: ("double", "no_double"),
    R_DOUBLE_ANSWER: ("take", "drop", "beaver"),
    R_RACCOON_DECISION: ("raccoon", "no_raccoon"),
    R_BUY_DECISION: ("buy", "no_buy"),
    R_LAST_MEMBER: ("buy_all", "drop"),
    R_ROLL: ("roll",),
    R_MOVE: ("move",),
}
SAFE_ANSWER = {
    R_DOUBLE_DECISION: "no_double",
    R_DOUBLE_ANSWER: "drop",
    R_RACCOON_DECISION: "no_raccoon",
    R_BUY_DECISION: "no_buy",
    R_LAST_MEMBER: "drop",
}


class Surface:
    def pending(self) -> tuple:
        """Who the game waits for now: a tuple of :class:`Pending` (empty at the end).
        Several entries at once only while doubles are being answered."""
        phase = self.phase
        if phase == OPENING:
            return (Pending(None, R_OPENING_ROLL),)
        if phase == CUBE_WINDOW:
            who = self.window_decider()
            return () if who is None else (Pending(who, R_DOUBLE_DECISION, self.doublable(who)),)
        if phase == ANSWERS:
            grouped = {}
            for c in self.cubes:
                if c.stage in OPEN_STAGES:
                    key = (self.answerer(c), R_DOUBLE_ANSWER if c.stage == OFFERED else R_RACCOON_DECISION)
                    grouped.setdefault(key, []).append(c.member)
            return tuple(Pending(who, reason, tuple(cubes)) for (who, reason), cubes in grouped.items())
        if phase == BUY:
            options = self.buyable()
            return (Pending(self.successor(), R_BUY_DECISION, options),) if options else ()
        if phase == LAST_MEMBER:
            x = self.last_member()
            if x is None:
                return ()
            return (Pending(x, R_LAST_MEMBER, tuple(c.member for c in self.cubes
                                                    if c.stage == DROPPED and c.holder != x)),)
        if phase in (ROLL, MOVE):
            return (Pending(self.roller, R_ROLL if phase == ROLL else R_MOVE),)
        return ()

    def actor_set(self) -> frozenset:
        """The players the game waits for now (the server's opening roll not included)."""
        return frozenset(p.player for p in self.pending() if p.player is not None)

    def allowed_actions(self, player) -> tuple:
        """Every action ``player`` may send now (``None``: the server, for the opening roll).
        ``timeout`` is the server's (its clock), never listed here."""
        if self.phase == OPENING and player is None:
            return ("opening_roll",)
        if self.is_over or player is None or player in self.departed or player not in self.players:
            return ()
        out = []
        for p in self.pending():
            if p.player != player:
                continue
            for action in REASON_ACTIONS[p.reason]:
                if action == "beaver" and not any(self.can_beaver(m) for m in p.cubes):
                    continue
                out.append(action)
        if self.rules.settlements and self.cubes_of(player):
            out.append("propose_settlement")
        if self.offers_to(player):
            out += ["accept_settlement", "reject_settlement"]
        if self.offers_by(player):
            out.append("withdraw_settlement")
        out.append("leave")
        return tuple(dict.fromkeys(out))

    def apply(self, action: str, player, **fields):
        """Dispatch ``action`` for ``player`` with its ``fields`` (snake_case names;
        ``boxDie``/``teamDie`` accepted too). Raises IllegalAction (or IllegalPlay)."""
        spec = ACTIONS.get(action)
        if spec is None:
            raise IllegalAction("unknown_action", gettext_noop("Unknown action %(action)s."),
                    params={"action": repr(action)})
        accepted, required = spec
        fields = {_CAMEL.get(k, k): v for k, v in fields.items()}
        check_fields(action, fields, accepted, required)
        if action == "opening_roll":
            if player is not None:
                raise IllegalAction("not_your_turn", gettext_noop("The server rolls the opening dice."))
            return self.opening_roll(**fields)
        return getattr(self, action)(player, **fields)

    # -- timeouts ----------------------------------------------------------------------------
    def timeout_answer(self, player) -> tuple:
        """The safe answers for ``player``'s pending cube decisions, as
        ``(action, fields)`` pairs in the order :meth:`timeout` applies them
        (empty: nothing to answer; a roll or a move has no safe answer)."""
        out = []
        for p in self.pending():
            if p.player != player or p.reason not in SAFE_ANSWER:
                continue
            action = SAFE_ANSWER[p.reason]
            if p.reason in (R_DOUBLE_DECISION, R_LAST_MEMBER):
                out.append((action, {}))
            else:
                out += [(action, {"cube": m}) for m in p.cubes]
        return tuple(out)

    def timeout(self, player):
        """``player``'s clock ran out on a cube decision: apply the safe answers."""
        self._require_player(player)
        if not self.timeout_answer(player):
            raise IllegalAction("nothing_to_time_out", gettext_noop("No cube decision of yours is pending."))
        return self._apply_safe(player)._advance()

    def _apply_safe(self, player):
        g = self
        for action, fields in self.timeout_answer(player):
            if action == "no_double":
                g = replace(g, decided=g.decided + (player,))
            elif action == "drop" and "cube" not in fields:
                g = g._do_last_drop(player)
            elif action == "drop":
                g = g._do_drop(g.cube(fields["cube"]))
            elif action == "no_raccoon":
                g = g._with_cube(replace(g.cube(fields["cube"]), stage=None))
            else:  # no_buy
                g = g._finalize_drop(g.cube(fields["cube"]))
        return g

    def _answer_for_departed(self):
        g = self
        for p in self.pending():
            if p.player is not None and p.player in g.departed:
                g = g._apply_safe(p.player)
        return g


__all__ = ["ACTIONS", "REASON_ACTIONS", "SAFE_ANSWER", "Surface"]
