"""Periodic work, run by the workers (``games.tasks``): clocks that ran out, abandoned
matches, presence rows of dead sockets, expired queue entries, house-bot turns left
waiting. Each is safe to run from several processes at once: every match is re-checked
under its lock."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Q

from games import clock
from games.engine import GameState
from games.models import Connection, Game, Match
from games.services.agents import queue_expire
from games.services.lifecycle import (
    MatchRecord,
    abort_game,
    bot_level,
    current_game,
    forfeit_match,
    lock_game,
    lock_match,
    time_out,
)
from games.services.social import abandon_after, presence_leave
from games import conf

def presence_stale_after() -> timedelta:
    """How long a presence row may go without a heartbeat (three missed beats of its process)."""
    return timedelta(seconds=float(conf.value("GAMES_PRESENCE_STALE_AFTER")))


def due_clocks(at) -> list:
    """The ids of the games whose player on the clock has lost on time at ``at``: a live
    clock at its deadline, a correspondence clock ``GAMES_CORR_GRACE`` after it. Two ranges
    of the index on ``Game.clock_deadline`` (finished games hold none), never a scan of every
    match: every clock out for longer than the grace; then, of the clocks out within it, the
    live ones (their matches read by primary key)."""
    grace_start = at - clock.claim_grace()
    playing = Game.objects.filter(status=Game.PLAYING)
    due = list(playing.filter(clock_deadline__lte=grace_start).order_by("clock_deadline").values_list("pk", flat=True))
    recent = dict(playing.filter(clock_deadline__gt=grace_start, clock_deadline__lte=at)
                  .order_by("clock_deadline").values_list("pk", "match_id"))
    if recent:
        live = set(Match.objects.filter(pk__in=set(recent.values()), corr_days=0).order_by().values_list("pk", flat=True))
        due += [game_id for game_id, match_id in recent.items() if match_id in live]
    return due


def expire_clocks(*, now=None) -> int:
    """Forfeit the matches whose player on the clock ran out of time (live and correspondence)."""
    at = now or clock.now()
    count = 0
    for game_id in due_clocks(at):
        count += expire_clock(game_id=game_id, now=at)
    return count


def expire_clock(*, game_id, now=None) -> int:
    """Forfeit game ``game_id``'s match if its running clock has run out (1), else 0."""
    at = now or clock.now()
    with transaction.atomic():
        game, match = lock_game(game_id)
        if game.status != Game.PLAYING or not game.clock_deadline or clock.expires_at(game, match) > at:
            return 0
        record = MatchRecord(match)
        time_out(record, game, match)
        record.commit()
        return 1


def close_abandoned(*, now=None) -> int:
    """Forfeit (or, when both left, abort) matches a player left longer than GAMES_ABANDON_AFTER."""
    at = now or clock.now()
    limit = at - abandon_after()
    count = 0
    stale = Match.objects.filter(Q(white_away_since__lte=limit) | Q(black_away_since__lte=limit),
                                 status=Match.PLAYING, corr_days=0).values_list("pk", flat=True)
    for match_id in stale:
        with transaction.atomic():
            match = lock_match(match_id)
            if match.status != Match.PLAYING:
                continue
            gone = [c for c in ("white", "black")
                    if getattr(match, f"{c}_away_since") and getattr(match, f"{c}_away_since") <= limit]
            if not gone:
                continue
            record = MatchRecord(match)
            game = current_game(match)
            if len(gone) == 2 and game is not None:
                abort_game(record, game, match, "both players left")
            else:
                forfeit_match(record, match, gone[0], "abandoned", game=game)
            record.commit()
            count += 1
    return count


def sweep_presence(*, now=None, stale_after: timedelta | None = None) -> int:
    """Remove presence rows whose socket stopped beating (a killed web process, a crashed
    consumer): the player shows as away and claims become possible."""
    at = now or clock.now()
    stale_after = stale_after or presence_stale_after()
    names = list(Connection.objects.filter(seen_at__lt=at - stale_after).values_list("channel_name", flat=True))
    for name in names:
        presence_leave(channel_name=name)
    return len(names)


def bots_waiting(*, idle: timedelta = timedelta(seconds=5), now=None) -> list:
    """``[(game id, version, level)]`` of games where a house bot must act and nothing was
    written for ``idle`` (its turn task was lost: a worker killed, a queue restarted)."""
    at = now or clock.now()
    rows = (Game.objects.filter(status=Game.PLAYING)
            .filter(Q(match__white__housebot__isnull=False) | Q(match__black__housebot__isnull=False))
            .annotate(last_event=Max("events__created_at")).filter(last_event__lte=at - idle)
            .select_related("match__white__housebot", "match__black__housebot"))
    out = []
    for game in rows:
        actor = GameState.from_dict(game.state).actor
        level = bot_level(game.match.player_of(actor)) if actor else None
        if level is not None:
            out.append((game.pk, game.version, level))
    return out


def sweep(*, now=None) -> dict:
    """Every periodic job once (``manage.py close_abandoned`` and tests)."""
    at = now or clock.now()
    return {"timeouts": expire_clocks(now=at), "abandoned": close_abandoned(now=at)}


__all__ = ["expire_clocks", "expire_clock", "close_abandoned", "sweep_presence", "bots_waiting", "sweep",
           "queue_expire"]
