"""Actions off the board: settlements (seed rule 5) and leaving a game.

A settlement offer names cubes the proposer is a party to and an amount: what
the proposer receives from the other party of each cube (negative: pays). The
other party accepts or rejects it cube by cube; an accepted offer ends that
cube at once (and the game for whoever has no cube left). Offers lapse at the
next roll, when their cube's stakes change (take, beaver, buy...) and when
either party leaves. A mixin of :class:`~games.engine.chouette.game.ChouetteGame`.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import IllegalAction
from .records import Offer
from .rules import BOX, END_FORFEIT, END_SETTLEMENT, TEAM, id_list
from games.engine.errors import gettext_noop

MAX_KIND = 3  # a settlement can move at most a backgammon's worth of a cube


class OffBoardActions:
    # -- settlements ------------------------------------------------------------------------
    def counterparty(self, offer: Offer):
        """Who may accept ``offer``: the other party of its cube."""
        c = self.cube(offer.cube)
        return c.opponent if offer.proposer == c.holder else c.holder

    def offers_to(self, player) -> tuple:
        return tuple(o for o in self.offers if self.counterparty(o) == player)

    def offers_by(self, player) -> tuple:
        return tuple(o for o in self.offers if o.proposer == player)

    def propose_settlement(self, player, amount: int, cubes=None) -> "OffBoardActions":
        """Offer to settle ``cubes`` (member ids; None: every cube you are a party to)
        for ``amount`` points each, received by you (negative: paid by you)."""
        self._require_player(player)
        if not self.rules.settlements:
            raise IllegalAction("settlements_off", gettext_noop("Settlements are not allowed in this chouette."))
        if type(amount) is not int:
            raise IllegalAction("bad_amount", gettext_noop("A settlement is a whole number of points."))
        if cubes is None:
            targets = self.cubes_of(player)
            if not targets:
                raise IllegalAction("cube_not_available", gettext_noop("You have no cube in play to settle."))
        else:
            targets = tuple(self.cube(m) for m in id_list(cubes))
            for c in targets:
                if not c.in_play or c.party(player) is None:
                    raise IllegalAction("cube_not_available", gettext_noop("You cannot settle the cube of %(member)s."),
                            params={"member": repr(c.member)})
        for c in targets:
            if abs(amount) > MAX_KIND * c.value:
                raise IllegalAction(
                    "bad_amount", gettext_noop("The cube of %(member)s is worth at most %(value)s points.")
                , params={"member": repr(c.member), "value": MAX_KIND * c.value})
        named = {c.member for c in targets}
        kept = tuple(o for o in self.offers if not (o.proposer == player and o.cube in named))
        return replace(self, offers=kept + tuple(Offer(c.member, player, amount) for c in targets))

    def _pick_offer(self, offers: tuple, cube) -> Offer:
        if cube is not None:
            self.cube(cube)  # unknown_cube
            offers = tuple(o for o in offers if o.cube == cube)
        if not offers:
            raise IllegalAction("no_offer", gettext_noop("There is no such settlement offer."))
        if len(offers) > 1:
            raise IllegalAction("cube_required", gettext_noop("Say which cube's offer you mean."))
        return offers[0]

    def accept_settlement(self, player, cube=None) -> "OffBoardActions":
        """Accept the offer on ``cube``: the points change hands and the cube ends."""
        self._require_player(player)
        offer = self._pick_offer(self.offers_to(player), cube)
        c = self.cube(offer.cube)
        to_holder = offer.amount if c.party(offer.proposer) == TEAM else -offer.amount
        winner = None if to_holder == 0 else (TEAM if to_holder > 0 else BOX)
        return self._end_cube(c, END_SETTLEMENT, winner, to_holder, reason="settlement")._advance()

    def reject_settlement(self, player, cube=None) -> "OffBoardActions":
        self._require_player(player)
        offer = self._pick_offer(self.offers_to(player), cube)
        return replace(self, offers=tuple(o for o in self.offers if o != offer))

    def withdraw_settlement(self, player, cube=None) -> "OffBoardActions":
        self._require_player(player)
        offer = self._pick_offer(self.offers_by(player), cube)
        return replace(self, offers=tuple(o for o in self.offers if o != offer))

    # -- leaving -----------------------------------------------------------------------------
    def leave(self, player) -> "OffBoardActions":
        """``player`` leaves during the game (docs/CHOUETTE.md, "Leaving").

        The box concedes the board: every cube still in play is lost by the box
        side at what the position is worth. A member's cubes stay in play and
        are decided by the board; every decision of theirs gets its safe answer
        at once; a captain who leaves hands over to the next member. When no
        member present is left in the game, the team concedes the board.
        """
        self._require_player(player)
        departed = self.departed + (player,)
        if player == self.box:
            return self._settle_on_board(TEAM, END_FORFEIT, departed=departed)
        offers = tuple(o for o in self.offers if player not in (o.proposer, self.counterparty(o)))
        return replace(self, departed=departed, offers=offers)._advance()


__all__ = ["OffBoardActions"]
