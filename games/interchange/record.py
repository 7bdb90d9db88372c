"""Build a game's event log the way the services write it, without a database.

:class:`GameRecorder` drives one :class:`~games.engine.GameState` through the
same engine calls as ``games.services.games`` and appends the same
``{"type", "payload"}`` events (same types, same payload keys, same order,
including the automatic ``roll`` that follows an action when the side on roll
has no cube decision). Imported ``.mat`` files and generated benchmark matches
go through it, so replay, export and analysis treat them like played matches.

Differences from a played game, by necessity: there is no dice seed, so
``diceCommitment`` and ``diceSeed`` are None; the roll ``counter`` values are
those a dice source starting at 0 would give; ``nextGame`` is None (the caller
stores the games and knows their ids).

>>> from games.engine import MatchRules, MatchState
>>> rec = GameRecorder.start(MatchState.new(MatchRules(length=3)), number=1)
>>> rec.opening(3, 1)
>>> rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
>>> [e["type"] for e in rec.events]
['game_start', 'opening_roll', 'move']
>>> rec.events[-1]["payload"]["notation"]
'8/5 6/5'
"""

from __future__ import annotations

from games.engine import OPENING, TURN, GameState, MatchState
from games.engine.notation import format_play
from games.engine.position import other
from games.engine.scoring import LEVEL_OF_KIND

__all__ = ["GameRecorder", "end_payload"]


def end_payload(state: GameState, match_after: MatchState) -> dict:
    """The ``game_end`` payload the services write (``nextGame`` left None)."""
    result = state.result
    winner = match_after.winner
    return {
        **result.to_dict(),
        "score": list(match_after.score),
        "matchOver": winner is not None,
        "matchWinner": winner,
        "nextGame": None,
        "diceSeed": None,
    }


class GameRecorder:
    """One game: engine state plus the events written so far."""

    def __init__(self, match: MatchState, state: GameState, number: int):
        self.match = match  # the match before this game's result
        self.state = state
        self.number = number
        self.events: list = []
        self.counter = 0  # the next dice counter, as a fresh dice source would number them

    @classmethod
    def start(cls, match: MatchState, *, number: int) -> "GameRecorder":
        """A new game of ``match`` (its rules, score and Crawford flag): writes ``game_start``."""
        state = GameState.new(match.game_rules())
        rec = cls(match, state, number)
        rec._append("game_start", {
            "number": number,
            "rules": state.rules.to_dict(),
            "position": state.position.to_dict(),
            "diceCommitment": None,
            "matchLength": match.rules.length,
            "score": list(match.score),
            "crawfordGame": state.rules.crawford_game,
        })
        return rec

    # -- writing ---------------------------------------------------------------------
    def _append(self, kind: str, payload: dict) -> None:
        self.events.append({"type": kind, "payload": payload})

    def _auto_roll(self, dice_source) -> None:
        """After an action: roll for the side on roll when it has no cube decision."""
        state = self.state
        if dice_source is not None and state.phase == TURN and not state.needs_decision():
            self.roll(dice_source(), auto=True)

    # -- the actions -------------------------------------------------------------------
    def opening(self, white_die: int, black_die: int) -> None:
        """One opening roll (a tie writes its event and waits for the next)."""
        counters = [self.counter, self.counter + 1]
        self.counter += 2
        self.state = self.state.opening_roll(white_die, black_die)
        first = self.state.position.turn if self.state.phase != OPENING else None
        self._append("opening_roll", {
            "white": white_die, "black": black_die, "counters": counters,
            "first": first, "cubeValue": self.state.cube_value,
        })

    def roll(self, dice, *, auto: bool | None = None) -> None:
        """The side on roll rolls ``dice``; ``auto`` defaults to "it had no cube decision"."""
        state = self.state
        color = state.position.turn
        if auto is None:
            auto = not state.needs_decision()
        self.state = state.roll(color, tuple(dice))
        self._append("roll", {"color": color, "dice": list(dice), "counter": self.counter, "auto": auto})
        self.counter += 1

    def move(self, steps, dice_source=None) -> None:
        """The side on roll plays ``steps`` (wire dicts or Steps)."""
        before = self.state
        color = before.actor
        after = before.move(color, steps)
        self.state = after
        self._append("move", {
            "color": color,
            "moves": [s.to_dict() for s in after.last_play],
            "dice": list(before.dice),
            "notation": format_play(before.position, after.last_play),
        })
        self._auto_roll(dice_source)

    def double(self) -> None:
        color = self.state.actor
        self.state = self.state.double(color)
        self._append("double", {"color": color, "cubeValue": self.state.cube_value * 2})

    def take(self, dice_source=None) -> None:
        color = self.state.actor
        self.state = self.state.take(color)
        self._append("take", {"color": color, "cubeValue": self.state.cube_value})
        self._auto_roll(dice_source)

    def drop(self) -> None:
        color = self.state.actor
        self.state = self.state.drop(color)
        self._append("drop", {"color": color})

    def beaver(self, dice_source=None) -> None:
        color = self.state.actor
        self.state = self.state.beaver(color)
        self._append("beaver", {"color": color, "cubeValue": self.state.cube_value})
        self._auto_roll(dice_source)

    def raccoon(self, dice_source=None) -> None:
        color = self.state.actor
        self.state = self.state.raccoon(color)
        self._append("raccoon", {"color": color, "cubeValue": self.state.cube_value})
        self._auto_roll(dice_source)

    def resign_offer(self, color: str, level: int) -> None:
        self.state = self.state.offer_resignation(color, level)
        self._append("resign_offer", {"color": color, "level": level})

    def resign_accept(self) -> None:
        color = self.state.actor
        self.state = self.state.accept_resignation(color)
        self._append("resign_accept", {"color": color})

    def resign_reject(self, dice_source=None) -> None:
        color = self.state.actor
        self.state = self.state.reject_resignation(color)
        self._append("resign_reject", {"color": color})
        self._auto_roll(dice_source)

    def resign(self, color: str) -> None:
        """A plain resign: concede at the most the position could lose."""
        self.state = self.state.resign(color)
        level = LEVEL_OF_KIND[self.state.result.kind]
        self._append("resign", {"color": color, "level": level})

    def forfeit(self, color: str, reason: str = "forfeit") -> None:
        """``color`` forfeits: a match is awarded (the game scores nothing), a money game
        is lost at its stakes (as ``games.services.lifecycle.forfeit_match``)."""
        scored = self.match.rules.is_money
        self.state = self.state.forfeit(color, scored=scored)
        self._append("forfeit", {"color": color, "reason": reason} if scored else
                     {"color": color, "reason": reason, "scored": False})

    # -- the end ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def finish(self) -> MatchState:
        """Write ``game_end`` and return the match with this game's result recorded."""
        if not self.state.is_over:
            raise ValueError("The game is not over.")
        result = self.state.result
        after = self.match.record(result)
        if result.reason == "forfeit" and after.winner is None:
            # leaving forfeits the whole match (a money session just ends: no winner)
            payload = end_payload(self.state, after)
            payload["matchOver"] = True
            payload["matchWinner"] = None if after.rules.is_money else result.winner
            self._append("game_end", payload)
            return after if after.rules.is_money else after.forfeit(other(result.winner))
        self._append("game_end", end_payload(self.state, after))
        return after

    @property
    def opponent(self) -> str:
        return other(self.state.actor)
