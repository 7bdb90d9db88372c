"""The cube and score around a decision, seen by the player who decides.

Plain data, no engine-specific evaluator: :class:`CubeContext` is what an evaluator
needs besides the board (cube value and owner relative to the player, points each side
still needs, Crawford game, money options). :func:`cube_available` is GNU Backgammon's
rule for whether a turn holds a cube decision worth analysing (``GetDPEq`` in gnubg's
``eval.c``): the player may double and doubling can change something.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import GameState

__all__ = ["CubeContext", "cube_context", "cube_available"]


@dataclass(frozen=True)
class CubeContext:
    """``owner``: ``"centered"``, ``"player"`` or ``"opponent"`` (relative to the player).
    ``away`` / ``opponent_away``: points still needed (0 and 0 in a money session)."""

    cube_value: int = 1
    owner: str = "centered"
    away: int = 0
    opponent_away: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False

    @property
    def is_money(self) -> bool:
        return not self.away and not self.opponent_away

    def flipped(self) -> "CubeContext":
        """The same cube seen by the opponent."""
        owner = {"player": "opponent", "opponent": "player"}.get(self.owner, "centered")
        return CubeContext(self.cube_value, owner, self.opponent_away, self.away, self.crawford,
                           self.jacoby, self.beaver)

    def doubled(self) -> "CubeContext":
        """After this player doubles and the opponent takes: twice the cube, opponent's."""
        return CubeContext(self.cube_value * 2, "opponent", self.away, self.opponent_away, self.crawford,
                           self.jacoby, self.beaver)


def cube_context(state: GameState, color: str, *, match_length: int = 0, score: tuple = (0, 0)) -> CubeContext:
    """The context of ``color`` in ``state`` (``score``: (white, black) at the game's start)."""
    owner = state.cube_owner
    rel = "centered" if owner is None else ("player" if owner == color else "opponent")
    rules = state.rules
    if match_length:
        white, black = score
        mine, theirs = (white, black) if color == "white" else (black, white)
        away, opp_away = max(1, match_length - mine), max(1, match_length - theirs)
        # a match without the cube is cube-less for the evaluator: its Crawford mode
        crawford = bool(rules.crawford_game or not rules.cube)
        return CubeContext(state.cube_value, rel, away, opp_away, crawford, False, False)
    return CubeContext(state.cube_value, rel, 0, 0, False, bool(rules.jacoby), bool(rules.beaver))


def cube_available(state: GameState, color: str, ctx: CubeContext) -> bool:
    """Whether ``color``, on roll before rolling, has a cube decision gnubg would analyse:
    the engine lets it double, and in a match the double is not dead (its own score plus
    the cube still short of the match, and not the post-Crawford leader)."""
    if not state.can_double(color):
        return False
    if ctx.is_money:
        return True
    if ctx.crawford:
        return False
    # a single win at this cube already wins the match (the post-Crawford leader too)
    return ctx.away > ctx.cube_value
