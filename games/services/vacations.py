"""Vacations: a player pauses all their correspondence matches for some days, up to
``GAMES_VACATION_DAYS`` a calendar year (docs/CORRESPONDENCE.md, "Vacation").

While on vacation the player's running correspondence clocks are pushed back by the
vacation (their deadlines move by as much, and the time spent is not charged), and a turn
that comes to them meanwhile starts its clock when the vacation ends (``games.clock.start``).
Live matches are not paused. Opponents see "on vacation until ...".
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q

from games import clock, conf
from games.errors import BadRequest, Conflict
from games.models import Game, Match, Player
from games.services.lifecycle import lock_game
from games.services.players import require_active
from django.utils.translation import gettext, ngettext


def days_per_year() -> int:
    return int(conf.value("GAMES_VACATION_DAYS"))


def vacation_days_left(player: Player, at=None) -> int:
    """The days of vacation ``player`` may still take this calendar year."""
    at = at or clock.now()
    used = player.vacation_days_used if player.vacation_year == at.year else 0
    return max(0, days_per_year() - used)


def on_vacation(player, at=None):
    """When ``player``'s vacation ends, if they are on one now (else None)."""
    until = getattr(player, "vacation_until", None)
    return until if until is not None and until > (at or clock.now()) else None


def player_vacation_start(*, player: Player, days) -> Player:
    """Take ``days`` of vacation from now (``bad_days``, ``vacation_too_long``, ``on_vacation``).

    Lock order: the player's correspondence matches (each with its current game, by id),
    then the player's row."""
    require_active(player)
    if type(days) is not int or days < 1:
        raise BadRequest("bad_days", gettext("A vacation is a whole number of days, at least 1."))
    at = clock.now()
    with transaction.atomic():
        games = list(Game.objects.filter(status=Game.PLAYING, match__status=Match.PLAYING, match__corr_days__gt=0)
                     .filter(Q(match__white_id=player.pk) | Q(match__black_id=player.pk))
                     .order_by("match_id").values_list("pk", flat=True))
        locked_games = [lock_game(game_id) for game_id in games]
        locked = Player.objects.select_for_update(no_key=True, of=("self",)).get(pk=player.pk)
        if on_vacation(locked, at):
            raise Conflict("on_vacation", gettext("You are on vacation until %(vacation_until)s UTC.")
                    % {"vacation_until": format(locked.vacation_until, '%Y-%m-%d %H:%M')})
        left = vacation_days_left(locked, at)
        if days > left:
            raise BadRequest("vacation_too_long", ngettext(
                "You have %(left)s day of vacation left this year.", "You have %(left)s days of vacation left this year.",
                left) % {"left": left})
        length = timedelta(days=days)
        for game, match in locked_games:
            color = match.color_of(player.pk)
            if game.status == Game.PLAYING and game.clock_color == color and game.clock_deadline is not None:
                # The time already spent on this decision stays spent; the rest waits for the return.
                game.clock_started_at += length
                game.clock_deadline += length
                game.save(update_fields=["clock_started_at", "clock_deadline"])
        if locked.vacation_year != at.year:
            locked.vacation_year, locked.vacation_days_used = at.year, 0
        locked.vacation_days_used += days
        locked.vacation_until = at + length
        locked.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    return locked
