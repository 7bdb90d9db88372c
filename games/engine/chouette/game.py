"""One chouette game as an immutable state machine.

The box plays White against the team (Black) on one board; each team member
has a :class:`~games.engine.chouette.records.Cube` of their own against the
box. Every action is a method returning a new :class:`ChouetteGame` or raising
:class:`~games.engine.errors.IllegalAction` with a stable code (a bad checker
play raises :class:`~games.engine.errors.IllegalPlay`, as in the two-player
engine). The cube actions live in :mod:`.cubes`, settlements and leaving in
:mod:`.offboard`, and the generic surface a server drives (``pending``,
``allowed_actions``, ``apply``, ``timeout``) in :mod:`.surface`.

>>> g = ChouetteGame.new(ChouetteRules(), box="ann", team=["bob", "cy"])
>>> g.phase, g.captain, [p.reason for p in g.pending()]
('opening', 'bob', ['opening_roll'])
>>> g = g.opening_roll(box_die=2, team_die=5)   # the team wins the opening: 5-2
>>> g.phase, g.on_roll, g.roller, g.dice
('move', 'team', 'bob', (5, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import IllegalAction
from ..moves import Step, check_play, legal_plays
from ..position import Position
from ..scoring import points_for, win_kind
from .cubes import CubeActions
from .offboard import OffBoardActions
from .records import ChouetteResult, Cube, Offer, Payment, net_points
from .rules import (
    ANSWERS,
    BOX,
    BUY,
    COLOR_OF,
    CUBE_WINDOW,
    DROPPED,
    END_BEAROFF,
    END_FORFEIT,
    ENDING_BEAROFF,
    ENDING_CUBES,
    ENDING_FORFEIT,
    LAST_MEMBER,
    MOVE,
    OPENING,
    OVER,
    ROLL,
    ROUND_PHASES,
    SIDE_OF,
    TEAM,
    ChouetteRules,
    check_die,
    OPEN_STAGES,
    check_player,
    phase_message,
)
from .surface import Surface
from games.engine.errors import gettext_noop


@dataclass(frozen=True)
class ChouetteGame(CubeActions, OffBoardActions, Surface):
    """A chouette game in progress (or over). Build one with :meth:`new`."""

    rules: ChouetteRules
    box: object
    team: tuple  # team order at the start: the first captain, then the crew
    captain: object  # the captain now (changes when the captain goes out)
    cubes: tuple  # one Cube per team member, in team order
    position: Position = field(default_factory=Position.initial)
    phase: str = OPENING
    dice: tuple | None = None
    decided: tuple = ()  # who has made their decision in the current cube window
    payments: tuple = ()
    offers: tuple = ()  # open settlement offers
    departed: tuple = ()  # players who left during this game
    first_mover: str | None = None  # side that won the opening roll
    last_play: tuple = ()
    last_mover: str | None = None  # side
    turn_number: int = 0
    ending: str | None = None
    board_winner: str | None = None

    # -- construction -------------------------------------------------------------
    @classmethod
    def new(cls, rules: ChouetteRules, box, team, position: Position | None = None) -> "ChouetteGame":
        """A game waiting for its opening roll: ``box`` against ``team`` (captain first)."""
        team = tuple(check_player(p) for p in team)
        players = (check_player(box),) + team
        if len(set(players)) != len(players):
            raise IllegalAction("duplicate_player", gettext_noop("A player can sit only once in a chouette."))
        if not rules.min_players <= len(players) <= rules.max_players:
            raise IllegalAction(
                "bad_player_count", gettext_noop("This chouette needs %(min_players)s to %(max_players)s players.")
            , params={"min_players": rules.min_players, "max_players": rules.max_players})
        return cls(
            rules=rules,
            box=box,
            team=team,
            captain=team[0],
            cubes=tuple(Cube(member=m, holder=m, opponent=box) for m in team),
            position=position or Position.initial(),
        )

    # -- queries ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def players(self) -> tuple:
        return (self.box,) + self.team

    @property
    def on_roll(self) -> str | None:
        """The side on roll (``box``/``team``); None before the opening roll and at the end."""
        if self.phase in (OPENING, OVER):
            return None
        return SIDE_OF[self.position.turn]

    @property
    def roller(self):
        """Who rolls and moves for the side on roll: the box, or the captain."""
        side = self.on_roll
        if side is None:
            return None
        return self.box if side == BOX else self.captain

    def cube(self, member) -> Cube:
        for c in self.cubes:
            if c.member == member:
                return c
        raise IllegalAction("unknown_cube", gettext_noop("There is no cube of %(member)s in this game."),
                params={"member": repr(member)})

    def cubes_of(self, player) -> tuple:
        """The cubes in play that ``player`` is a party to (either side)."""
        return tuple(c for c in self.cubes if c.in_play and c.party(player) is not None)

    def holders(self, *, present: bool = False) -> tuple:
        """Team-side players with a cube in play, in team order (``present``: not departed)."""
        held = {c.holder for c in self.cubes if c.in_play}
        return tuple(p for p in self.team if p in held and not (present and p in self.departed))

    def in_game(self, player) -> bool:
        """Whether ``player`` still has a stake on the board (the box always does until the end)."""
        if self.phase == OVER:
            return False
        return player == self.box or bool(self.cubes_of(player))

    def successor(self):
        """The captain once the current round is settled: the captain if still in
        the game and present, else the first such member in team order (None: nobody)."""
        present = self.holders(present=True)
        if self.captain in present:
            return self.captain
        return present[0] if present else None

    def may_consult(self, player) -> bool:
        """Whether ``player`` may suggest plays to the team now (seed rule 2).

        The captain always may; another member only while in the game, present,
        and holding a cube whose value has been turned (any member in the game
        with ``full_consultation``). Nobody consults for the box.
        """
        if self.phase == OVER or player in self.departed or player not in self.team:
            return False
        held = [c for c in self.cubes if c.in_play and c.holder == player]
        if not held:
            return False
        return player == self.captain or self.rules.full_consultation or any(c.turned for c in held)

    def legal_plays(self) -> list:
        """The legal plays in the ``move`` phase (empty list in any other phase)."""
        return legal_plays(self.position, self.dice) if self.phase == MOVE else []

    # -- helpers ------------------------------------------------------------------
    def _require_player(self, player) -> None:
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        if player != self.box and player not in self.team:
            raise IllegalAction("not_in_game", gettext_noop("%(player)s does not play in this game."),
                    params={"player": repr(player)})
        if player in self.departed:
            raise IllegalAction("left_game", gettext_noop("You have left this game."))

    def _require_turn(self, player, phase: str) -> None:
        """``player`` must be the roller and the game in ``phase`` (roll and move)."""
        self._require_player(player)
        if self.phase != phase:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        if player != self.roller:
            if self.on_roll == TEAM and player in self.team:
                raise IllegalAction("not_captain", gettext_noop("Only the captain rolls and plays for the team."))
            raise IllegalAction("not_your_turn", gettext_noop("It is not your turn."))

    def _with_cube(self, new: Cube) -> "ChouetteGame":
        """Replace one cube; open settlement offers on it lapse when its stakes change."""
        old = self.cube(new.member)
        cubes = tuple(new if c.member == new.member else c for c in self.cubes)
        offers = self.offers
        changed = (old.value, old.owner, old.holder, old.opponent) != (new.value, new.owner, new.holder, new.opponent)
        if changed or not new.in_play:
            offers = tuple(o for o in offers if o.cube != new.member)
        return replace(self, cubes=cubes, offers=offers)

    def _pay(self, payer, payee, points: int, reason: str, cube) -> "ChouetteGame":
        if points < 0:
            payer, payee, points = payee, payer, -points
        if points == 0:
            return self
        return replace(self, payments=self.payments + (Payment(payer, payee, points, reason, cube),))

    def _end_cube(self, c: Cube, end: str, winner: str | None, points: int, kind: str | None = None,
                  reason: str | None = None) -> "ChouetteGame":
        """End cube ``c``: the holder wins ``points`` (negative: loses) from the opponent."""
        g = self._pay(c.opponent, c.holder, points, reason or end, c.member)
        # (doubled_by and round_value stay until the round ends: they tell who answered)
        done = replace(c, stage=None, end=end, winner=winner, kind=kind, points=points)
        return g._with_cube(done)

    def _settle_on_board(self, winner: str, reason: str, **changes) -> "ChouetteGame":
        """Every cube still in play is decided by the board: ``winner`` side wins what
        the position is worth (win_kind), times the cube, Jacoby per cube."""
        g = replace(self, **changes)
        for c in g.cubes:
            if c.stage == DROPPED:
                g = g._finalize_drop(c)
        for c in g.cubes:
            if not c.in_play:
                continue
            kind = win_kind(g.position, COLOR_OF[winner])
            pts = points_for(kind, c.value, jacoby=g.rules.jacoby, cube_turned=c.turned)
            g = g._end_cube(c, reason, winner, pts if winner == TEAM else -pts, kind)
        ending = ENDING_BEAROFF if reason == END_BEAROFF else ENDING_FORFEIT
        return g._over(ending, board_winner=winner)

    def _over(self, ending: str, **changes) -> "ChouetteGame":
        cubes = tuple(replace(c, doubled_by=None, round_value=None) for c in self.cubes)
        return replace(self, phase=OVER, dice=None, offers=(), decided=(), cubes=cubes, ending=ending, **changes)

    # -- the board ------------------------------------------------------------------
    def opening_roll(self, box_die: int, team_die: int) -> "ChouetteGame":
        """The box and the captain roll one die each (given by the server). A tie
        re-rolls (the state is unchanged); otherwise the higher die moves first
        playing both numbers."""
        if self.phase != OPENING:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        check_die(box_die)
        check_die(team_die)
        if box_die == team_die:
            return self
        first = BOX if box_die > team_die else TEAM
        dice = (box_die, team_die) if first == BOX else (team_die, box_die)
        return replace(
            self, position=self.position.with_turn(COLOR_OF[first]), phase=MOVE, dice=dice,
            first_mover=first, turn_number=1, offers=(),
        )

    def roll(self, player, dice) -> "ChouetteGame":
        """The roller rolls ``dice`` (given by the server). Open settlement offers lapse."""
        self._require_turn(player, ROLL)
        if not isinstance(dice, (tuple, list)) or len(dice) != 2:
            raise IllegalAction("bad_dice", gettext_noop("Dice must be two integers from 1 to 6."))
        dice = (check_die(dice[0]), check_die(dice[1]))
        return replace(self, phase=MOVE, dice=dice, offers=())

    def move(self, player, steps) -> "ChouetteGame":
        """The roller plays the dice: ``steps`` is the whole play (Step values or wire dicts)."""
        self._require_turn(player, MOVE)
        play = check_play(self.position, self.dice, steps)
        after = play.result
        side = self.on_roll
        base = dict(position=after, dice=None, last_play=tuple(play.steps), last_mover=side,
                    turn_number=self.turn_number + 1)
        if after.off(COLOR_OF[side]) == 15:
            return self._settle_on_board(side, END_BEAROFF, **base)
        return replace(self, phase=CUBE_WINDOW, decided=(), **base)._advance()

    # -- keeping the state coherent after every action ----------------------------------
    def _advance(self) -> "ChouetteGame":
        """Apply everything that follows by itself: departed players' safe answers,
        the end of a round, the captain's promotion, the end of the game, skipping
        a cube window nobody can use."""
        g = self
        while True:
            before = g
            if g.phase == OVER:
                return g
            g = g._answer_for_departed()
            if g.phase == ANSWERS and not any(c.stage in OPEN_STAGES for c in g.cubes):
                g = g._resolve_round()
            elif g.phase == BUY and not g.buyable():
                g = g._end_round()
            elif g.phase == LAST_MEMBER and g.last_member() is None:
                g = g._end_round()
            if g.phase not in ROUND_PHASES and g.phase != OVER:
                g = g._promote_or_finish()
                if g.phase == CUBE_WINDOW and g.window_decider() is None:
                    opened = any(c.stage in OPEN_STAGES for c in g.cubes)
                    g = replace(g, phase=ANSWERS) if opened else replace(g, phase=ROLL, decided=())
            if g == before:
                return g

    def _promote_or_finish(self) -> "ChouetteGame":
        if not any(c.in_play for c in self.cubes):
            return self._over(ENDING_CUBES)
        nxt = self.successor()
        if nxt is None:  # only departed members hold cubes: nobody can play for the team
            return self._settle_on_board(BOX, END_FORFEIT)
        if nxt != self.captain:
            return replace(self, captain=nxt)
        return self

    # -- the result -----------------------------------------------------------------
    def box_holds(self) -> bool:
        """Whether the box keeps the box (docs/CHOUETTE.md, "Rotation")."""
        if self.phase != OVER:
            raise IllegalAction("game_not_over", gettext_noop("The game is not over."))
        if self.ending in (ENDING_BEAROFF, ENDING_FORFEIT):
            return self.board_winner == BOX
        return sum(c.points for c in self.cubes if c.holder == self.captain) <= 0

    def result(self) -> ChouetteResult:
        """The finished game: per cube, per payment and per player (raises before the end)."""
        holds = self.box_holds()
        return ChouetteResult(
            box=self.box,
            team=self.team,
            first_captain=self.team[0],
            final_captain=self.captain,
            ending=self.ending,
            board_winner=self.board_winner,
            box_holds=holds,
            cubes=self.cubes,
            payments=self.payments,
            scores=net_points(self.payments, self.players),
        )

    def running_scores(self) -> tuple:
        """``(player, points)`` of the payments made so far in this game (zero-sum)."""
        return net_points(self.payments, self.players)

    # -- persistence ------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-ready dict; :meth:`from_dict` restores an equal state."""
        return {
            "rules": self.rules.to_dict(),
            "box": self.box,
            "team": list(self.team),
            "captain": self.captain,
            "cubes": [c.to_dict() for c in self.cubes],
            "position": self.position.to_dict(),
            "phase": self.phase,
            "dice": list(self.dice) if self.dice else None,
            "decided": list(self.decided),
            "payments": [p.to_dict() for p in self.payments],
            "offers": [o.to_dict() for o in self.offers],
            "departed": list(self.departed),
            "firstMover": self.first_mover,
            "lastPlay": [s.to_dict() for s in self.last_play],
            "lastMover": self.last_mover,
            "turnNumber": self.turn_number,
            "ending": self.ending,
            "boardWinner": self.board_winner,
            "onRoll": self.on_roll,
            "roller": self.roller,
            "pending": [p.to_dict() for p in self.pending()],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "ChouetteGame":
        return cls(
            rules=ChouetteRules.from_dict(data["rules"]),
            box=data["box"],
            team=tuple(data["team"]),
            captain=data["captain"],
            cubes=tuple(Cube.from_dict(c) for c in data["cubes"]),
            position=Position.from_dict(data["position"]),
            phase=data["phase"],
            dice=tuple(data["dice"]) if data["dice"] else None,
            decided=tuple(data["decided"]),
            payments=tuple(Payment.from_dict(p) for p in data["payments"]),
            offers=tuple(Offer.from_dict(o) for o in data["offers"]),
            departed=tuple(data["departed"]),
            first_mover=data["firstMover"],
            last_play=tuple(Step(s["from"], s["to"]) for s in data["lastPlay"]),
            last_mover=data["lastMover"],
            turn_number=data["turnNumber"],
            ending=data["ending"],
            board_winner=data["boardWinner"],
        )


__all__ = ["ChouetteGame"]
