"""Cube actions of a chouette game: the cube window, the answers, rules 3 and 4.

A *round* of cube action belongs to the side on roll, before its roll:

1. ``cube_window``: the side's players with access to a cube decide one at a
   time, in order (the team: captain first, then the crew in line order; the
   box side: the box, then any rule-4 partners) -- ``double`` (some or all of
   their cubes) or ``no_double``.
2. ``answers``: the other party of every doubled cube answers it on its own --
   ``take``, ``drop`` or ``beaver``; after a beaver, when raccoons are on, the
   doubler answers ``raccoon`` or ``no_raccoon``. Answers come in any order.
3. when members dropped the box's doubles: ``last_member`` (rule 4) when one
   member alone is left and took, else ``buy`` (rule 3) when the captain may buy.
4. ``roll``: the round is over; the captain is promoted if he went out.

This module is a mixin of :class:`~games.engine.chouette.game.ChouetteGame`:
public methods check and then call the ``_do_*`` cores, which the timeouts
and the departed players' automatic answers reuse.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import IllegalAction
from .records import Cube
from .rules import (
    ANSWERS,
    BEAVERED,
    BOUGHT_BY_CAPTAIN,
    BOUGHT_BY_LAST_MEMBER,
    BOX,
    BUY,
    CUBE_WINDOW,
    DROPPED,
    END_DROP,
    LAST_MEMBER,
    OFFERED,
    ROLL,
    TEAM,
    id_list,
    other_side,
    phase_message,
)
from games.engine.errors import gettext_noop


class CubeActions:
    # -- the cube window ----------------------------------------------------------------
    def can_double_cube(self, cube: Cube, side: str) -> bool:
        """Whether ``side``'s party may double ``cube`` (ignoring whose turn it is)."""
        return (
            cube.in_play
            and cube.stage is None
            and cube.owner in (None, side)
            and self.rules.limit_allows(cube.value * 2)
            and cube.player_on(side) not in self.departed
        )

    def doublable(self, player) -> tuple:
        """The cubes (member ids) ``player`` may double for the side on roll."""
        side = self.on_roll
        if side is None:
            return ()
        return tuple(c.member for c in self.cubes if c.player_on(side) == player and self.can_double_cube(c, side))

    def window_deciders(self) -> tuple:
        """Everyone with a cube decision for the side on roll, in order."""
        if self.on_roll == TEAM:
            order = self.team
        else:
            partners = tuple(p for p in self.team if any(c.in_play and c.opponent == p for c in self.cubes))
            order = (self.box,) + partners
        return tuple(p for p in order if self.doublable(p))

    def window_decider(self):
        """Whose cube decision the window waits for (None outside ``cube_window``)."""
        queue = self.window_queue()
        return queue[0] if queue else None

    def window_queue(self) -> tuple:
        """Who still has a cube decision in this window, in order (the first decides now)."""
        if self.phase != CUBE_WINDOW:
            return ()
        return tuple(p for p in self.window_deciders() if p not in self.decided)

    def _require_decider(self, player) -> None:
        self._require_player(player)
        if self.phase != CUBE_WINDOW:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        if player != self.window_decider():
            raise IllegalAction("not_your_turn", gettext_noop("It is not your cube decision now."))

    def _why_not_doublable(self, cube: Cube, player) -> IllegalAction:
        side = self.on_roll
        if cube.player_on(side) != player or not cube.in_play or cube.stage is not None:
            return IllegalAction("cube_not_available", gettext_noop("You cannot double the cube of %(member)s now."),
                    params={"member": repr(cube.member)})
        if cube.owner not in (None, side):
            return IllegalAction("not_cube_owner", gettext_noop("The other side owns that cube."))
        return IllegalAction("cube_limit", gettext_noop("The cube cannot go past %(cube_limit)s."),
                params={"cube_limit": self.rules.cube_limit})

    def double(self, player, cubes=None) -> "CubeActions":
        """Double some of your cubes (``cubes``: member ids; None: every cube you may double)."""
        self._require_decider(player)
        mine = self.doublable(player)
        if cubes is None:
            chosen = mine
        else:
            chosen = id_list(cubes)
            for member in chosen:
                cube = self.cube(member)
                if member not in mine:
                    raise self._why_not_doublable(cube, player)
        return self._do_double(player, chosen)._advance()

    def no_double(self, player) -> "CubeActions":
        """Let the cube decision pass (the safe answer of the window)."""
        self._require_decider(player)
        return replace(self, decided=self.decided + (player,))._advance()

    def _do_double(self, player, chosen) -> "CubeActions":
        side = self.on_roll
        g = self
        for member in chosen:
            c = g.cube(member)
            g = g._with_cube(replace(c, stage=OFFERED, doubled_by=side, round_value=c.value))
        return replace(g, decided=g.decided + (player,))

    # -- answers ---------------------------------------------------------------------------
    def answerer(self, cube: Cube):
        """Who owes ``cube`` an answer now (None: nothing pending on it)."""
        if cube.stage == OFFERED:
            return cube.player_on(other_side(cube.doubled_by))
        if cube.stage == BEAVERED:
            return cube.player_on(cube.doubled_by)
        return None

    def can_beaver(self, member) -> bool:
        """Whether the double on ``member``'s cube may be beavered (beavers on, limit)."""
        c = self.cube(member)
        return c.stage == OFFERED and self.rules.beaver and self.rules.limit_allows(c.value * 4)

    def _pick_answer(self, player, member, stage: str) -> Cube:
        self._require_player(player)
        mine = [c for c in self.cubes if c.stage == stage and self.answerer(c) == player]
        if member is None:
            if len(mine) == 1:
                return mine[0]
            if mine:
                raise IllegalAction("cube_required", gettext_noop("Say which cube you answer."))
            answered = [c for c in self.cubes if self._answered_by(c, player)]
            if answered and self.phase == ANSWERS:
                raise IllegalAction("already_answered", gettext_noop("You have answered every double."))
        else:
            cube = self.cube(member)
            if cube in mine:
                return cube
            if self._answered_by(cube, player):
                raise IllegalAction("already_answered", gettext_noop("The double of %(member)s's cube is answered."),
                        params={"member": repr(member)})
        if self.phase != ANSWERS:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        raise IllegalAction("not_your_turn", gettext_noop("No double waits for your answer there."))

    def _answered_by(self, cube: Cube, player) -> bool:
        return (
            cube.round_value is not None
            and cube.doubled_by is not None
            and cube.stage != OFFERED
            and cube.party(player) == other_side(cube.doubled_by)
        ) or (cube.stage == DROPPED and cube.holder == player)

    def take(self, player, cube=None) -> "CubeActions":
        """Take a double: the cube doubles and the taker's side owns it."""
        return self._do_take(self._pick_answer(player, cube, OFFERED))._advance()

    def _do_take(self, c: Cube) -> "CubeActions":
        side = other_side(c.doubled_by)
        return self._with_cube(replace(c, stage=None, value=c.value * 2, owner=side, turned=True))

    def beaver(self, player, cube=None) -> "CubeActions":
        """Take and redouble at once, keeping the cube (value x4); with raccoons on,
        the doubler then answers ``raccoon`` or ``no_raccoon``."""
        c = self._pick_answer(player, cube, OFFERED)
        if not self.rules.beaver:
            raise IllegalAction("no_beaver", gettext_noop("Beavers are not allowed in this chouette."))
        if not self.rules.limit_allows(c.value * 4):
            raise IllegalAction("cube_limit", gettext_noop("The cube cannot go past %(cube_limit)s."),
                    params={"cube_limit": self.rules.cube_limit})
        side = other_side(c.doubled_by)
        raccoon_open = self.rules.raccoon and self.rules.limit_allows(c.value * 8)
        new = replace(c, stage=BEAVERED if raccoon_open else None, value=c.value * 4, owner=side, turned=True)
        return self._with_cube(new)._advance()

    def raccoon(self, player, cube=None) -> "CubeActions":
        """The doubler redoubles a beaver (value x2); the beaver keeps the cube."""
        if not self.rules.raccoon:
            raise IllegalAction("no_raccoon", gettext_noop("Raccoons are not allowed in this chouette."))
        c = self._pick_answer(player, cube, BEAVERED)
        return self._with_cube(replace(c, stage=None, value=c.value * 2))._advance()

    def no_raccoon(self, player, cube=None) -> "CubeActions":
        c = self._pick_answer(player, cube, BEAVERED)
        return self._with_cube(replace(c, stage=None))._advance()

    def drop(self, player, cube=None) -> "CubeActions":
        """Drop a double (lost at the value before it); in the ``last_member``
        phase (rule 4), drop the doubles just taken instead of buying."""
        if self.phase == LAST_MEMBER:
            self._require_player(player)
            if player != self.last_member():
                raise IllegalAction("not_your_turn", gettext_noop("The last member left decides now."))
            return self._do_last_drop(player)._advance()
        return self._do_drop(self._pick_answer(player, cube, OFFERED))._advance()

    def _do_drop(self, c: Cube) -> "CubeActions":
        if c.doubled_by == TEAM:  # the box side drops: the team-side holder wins the old value
            return self._end_cube(c, END_DROP, TEAM, c.value)
        if c.opponent == self.box:  # who is paid waits for rules 3 and 4
            return self._with_cube(replace(c, stage=DROPPED))
        return self._end_cube(c, END_DROP, BOX, -c.value)  # a rule-4 partner's double

    # -- the end of a round: rules 3 and 4 -------------------------------------------------
    def last_member(self):
        """Rule 4: the one member left in the game after members dropped the box's
        doubles, when he took in this round (None: rule 4 does not apply)."""
        if not self.rules.last_member_buys or self.phase not in (ANSWERS, LAST_MEMBER):
            return None
        holders = self.holders()
        if len(holders) != 1:
            return None
        x = holders[0]
        took = any(
            c.in_play and c.holder == x and c.round_value is not None and c.doubled_by == BOX for c in self.cubes
        )
        others = any(c.stage == DROPPED and c.holder != x for c in self.cubes)
        return x if took and others else None

    def buyable(self) -> tuple:
        """Rule 3: the dropped cubes the captain may buy now (member ids)."""
        if self.phase != BUY:
            return ()
        buyer = self.successor()
        return tuple(c.member for c in self.cubes if c.stage == DROPPED and c.holder != buyer)

    def _resolve_round(self) -> "CubeActions":
        dropped = [c for c in self.cubes if c.stage == DROPPED]
        if not dropped:
            return self._end_round()
        if self.last_member() is not None:
            return replace(self, phase=LAST_MEMBER)
        buyer = self.successor()
        g = self
        if self.rules.captain_buys and buyer is not None:
            for c in dropped:
                if c.holder == buyer:
                    g = g._finalize_drop(c)
            g = replace(g, phase=BUY)
            if g.buyable():
                return g
        return g._end_round()

    def _finalize_drop(self, c: Cube) -> "CubeActions":
        """Nobody bought a dropped cube: its holder pays the box its value before the double."""
        return self._end_cube(c, END_DROP, BOX, -c.value)

    def _end_round(self) -> "CubeActions":
        g = self
        for c in g.cubes:
            if c.stage == DROPPED:
                g = g._finalize_drop(c)
        cubes = tuple(replace(c, doubled_by=None, round_value=None) for c in g.cubes)
        return replace(g, cubes=cubes, phase=ROLL, decided=())

    def _pick_buy(self, player, member) -> Cube:
        self._require_player(player)
        if self.phase != BUY:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        if player != self.successor():
            raise IllegalAction("not_captain", gettext_noop("Only the captain may buy a dropped cube."))
        options = self.buyable()
        if member is None:
            if len(options) != 1:
                raise IllegalAction("cube_required", gettext_noop("Say which cube you buy or let go."))
            member = options[0]
        if member not in options:
            self.cube(member)  # unknown_cube first
            raise IllegalAction("cube_not_available", gettext_noop("The cube of %(member)s is not for sale."),
                    params={"member": repr(member)})
        return self.cube(member)

    def buy(self, player, cube=None) -> "CubeActions":
        """Rule 3: the captain buys a dropped cube; the dropper pays the captain its
        value before the double (instead of the box), and the captain plays it on,
        doubled and owned by the team, against the box."""
        return self._do_buy(player, self._pick_buy(player, cube))._advance()

    def no_buy(self, player, cube=None) -> "CubeActions":
        """Rule 3: let a dropped cube go; its dropper pays the box."""
        return self._finalize_drop(self._pick_buy(player, cube))._advance()

    def _do_buy(self, player, c: Cube) -> "CubeActions":
        v = c.value
        g = self._pay(c.holder, player, v, "buy", c.member)
        bought = replace(c, holder=player, value=2 * v, owner=TEAM, turned=True, stage=None,
                         bought=BOUGHT_BY_CAPTAIN, dropped_by=c.holder, drop_value=v)
        return g._with_cube(bought)

    def buy_all(self, player) -> "CubeActions":
        """Rule 4: the last member buys every cube just dropped. Each dropper still
        pays the box its value before the double and pays the last member as much
        again; the dropper then holds the box's side of that cube, doubled,
        against the last member ("they now join the box")."""
        self._require_player(player)
        if self.phase != LAST_MEMBER:
            raise IllegalAction("wrong_phase", phase_message(self.phase))
        if player != self.last_member():
            raise IllegalAction("not_your_turn", gettext_noop("The last member left decides now."))
        g = self
        for c in self.cubes:
            if c.stage != DROPPED:
                continue
            if c.holder == player:
                g = g._finalize_drop(c)
                continue
            dropper, v = c.holder, c.value
            g = g._pay(dropper, self.box, v, "drop", c.member)
            g = g._pay(dropper, player, v, "last_member", c.member)
            g = g._with_cube(replace(c, holder=player, opponent=dropper, value=2 * v, owner=TEAM, turned=True,
                                     stage=None, bought=BOUGHT_BY_LAST_MEMBER, dropped_by=dropper, drop_value=v))
        return g._end_round()._advance()

    def _do_last_drop(self, player) -> "CubeActions":
        """Rule 4's other choice: the doubles the last member took this round become
        drops at the value before the double; the game ends for everyone."""
        g = self
        for c in self.cubes:
            if c.in_play and c.holder == player and c.round_value is not None and c.doubled_by == BOX:
                v = c.round_value
                before = replace(c, value=v, owner=None if v == 1 else BOX, turned=v > 1)
                g = g._with_cube(before)._end_cube(before, END_DROP, BOX, -v)
        return g._end_round()


__all__ = ["CubeActions"]
