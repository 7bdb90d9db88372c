"""A running tournament: the pure event (``games.tournament``) driven by the site.

Every change goes the same way (:func:`advance`): load the event from the tournament's
row, apply what happened (a match's result, a withdrawal, the arena's clock), let the
event pair what is due, create a :class:`~games.models.Match` for every pairing that has
none yet (live rounds: at once), store the event and tell the tournament's page.

**Lock order** (after ``services.lifecycle``'s): match rows, then player rows, then the
**tournament** row, then its entries. A match that ends runs :func:`on_match_end` (a hook of
``lifecycle.end_match``) with its match and players locked; it locks the tournament
last. The rules the site adds to the pure ones are in docs/TOURNAMENTS.md, "On the site".
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q

from games import clock
from games.errors import Conflict, NotFound
from games.events import Batch, publish_on_commit, tournament_group
from games.models import Entry, Match, Player, Tournament, TournamentMatch
from games.services import lifecycle
from games.services.lifecycle import MatchRecord, lock_match, valid_id
from games.services.notices import tournament_match_notice
from games.tournament import AWARDED, DOUBLE_FORFEIT, Arena, Result, TournamentError, load
from django.utils.translation import gettext


def lock_tournament(tournament_id) -> Tournament:
    pk = valid_id(tournament_id, "tournament_not_found", gettext("No such tournament."))
    found = Tournament.objects.select_for_update(of=("self",), no_key=True).filter(pk=pk).first()
    if found is None:
        raise NotFound("tournament_not_found", gettext("There is no tournament %(pk)s.") % {"pk": pk})
    return found


def seconds(at) -> float:
    """A time as the pure package's seconds (the arena's clock)."""
    return at.timestamp()


def event_of(tournament: Tournament):
    return load(tournament.state)


def advance(tournament: Tournament, event, *, now=None) -> None:
    """Bring ``event`` up to date, create the matches it is waiting for and store it
    (the caller holds the tournament's lock)."""
    now = now or clock.now()
    gone = set(Entry.objects.filter(tournament=tournament).filter(Q(status__in=Entry.GONE) | Q(player__suspended=True))
               .values_list("player_id", flat=True))
    for pid in event.players:
        if pid in gone and pid not in event.withdrawn:
            event = event.withdraw(pid)
    if isinstance(event, Arena):
        event = event.tick(seconds(now))
        if not event.is_over and not event.closed:
            event = event.pair(now=seconds(now))
    while event.can_pair:
        event = event.pair_next_round()
    linked = set(TournamentMatch.objects.filter(tournament=tournament, replaced=False).values_list("key", flat=True))
    for pairing in () if tournament.paused_at is not None else event.pending():  # paused: no new match
        if pairing.key not in linked and not pairing.is_bye:
            create_pairing_match(tournament, pairing, now=now)
    store(tournament, event, now=now)


def store(tournament: Tournament, event, *, now) -> None:
    tournament.state = event.to_dict()
    tournament.version += 1
    fields = ["state", "version"]
    if event.is_over and tournament.status == Tournament.RUNNING:
        tournament.status = Tournament.FINISHED
        tournament.finished_at = now
        tournament.winner_id = event.winner
        fields += ["status", "finished_at", "winner"]
    tournament.save(update_fields=fields)
    tell(tournament)


def bump(tournament: Tournament) -> None:
    """A change outside the event (an entry before the start): a new version, told."""
    tournament.version += 1
    tournament.save(update_fields=["version"])
    tell(tournament)


def tell(tournament: Tournament) -> None:
    """The tournament's page and sockets hear of its new version after the commit."""
    publish_on_commit(Batch(group=tournament_group(tournament.pk), notices=[
        {"t": "tournament", "d": {"id": tournament.pk, "version": tournament.version, "status": tournament.status}}]))


def create_pairing_match(tournament: Tournament, pairing, *, now) -> Match:
    """The match of ``pairing``, started: its first game is open and its opening rolled
    (a house bot on roll is queued by the commit's batch like in any match)."""
    white, black = Player.objects.get(pk=pairing.a), Player.objects.get(pk=pairing.b)
    options = tournament.options or {}
    delay, bank = (0, 0) if tournament.corr_days else (clock.preset(options.get("clock")) or (0, 0))
    match = Match.objects.create(
        white=white, black=black, length=pairing.length, status=Match.PLAYING, started_at=now,
        cube=bool(options.get("cube", True)) and pairing.length > 1, crawford=bool(options.get("crawford", True)),
        rated=not (white.is_guest or black.is_guest) and bool(options.get("rated", True)),
        corr_days=tournament.corr_days, corr_bank_days=tournament.corr_bank_days, clock_delay=delay, clock_bank=bank,
    )
    if clock.has_clock(match):
        match.white_bank_ms = match.black_bank_ms = clock.initial_bank_ms(match)
        match.save(update_fields=["white_bank_ms", "black_bank_ms"])
    TournamentMatch.objects.create(tournament=tournament, key=pairing.key, match=match, round=pairing.round,
                                   label=pairing.label[:60], deadline=pairing_deadline(tournament, now))
    record = MatchRecord(match)
    lifecycle.open_game(record, match, lifecycle.create_game(match, 1))
    record.lobby_changed()
    record.commit()
    for player, opponent in ((white, black), (black, white)):
        tournament_match_notice(player, opponent, tournament=tournament, match=match, label=pairing.label)
    return match


def pairing_deadline(tournament: Tournament, now):
    """When an absent player of a pairing made at ``now`` forfeits (None: never). A round
    played by correspondence has at least the first move's days: the absent forfeit never
    comes before the correspondence clock of the first move would run out
    (docs/TOURNAMENTS.md, "Tournaments over days")."""
    hours = tournament.round_deadline_hours
    if not hours:
        return None
    return now + max(timedelta(hours=hours), timedelta(days=tournament.corr_days))


def result_of(match: Match, link: TournamentMatch) -> Result | None:
    """The pure result of a tournament match that ended (None: aborted, to be replayed)."""
    if link.forced == DOUBLE_FORFEIT:
        return Result.double_forfeit()
    if link.forced == AWARDED and match.winner_id is not None:
        return Result.awarded(match.winner_id)
    if match.status != Match.FINISHED:
        return None
    if match.winner_id is None:
        return Result.double_forfeit()
    mine, theirs = ((match.white_score, match.black_score) if match.winner_id == match.white_id
                    else (match.black_score, match.white_score))
    if match.end_reason == "points" and mine > theirs:
        return Result.played(match.winner_id, (mine, theirs))
    return Result.forfeit(match.winner_id)


def on_match_end(match: Match) -> None:
    """``lifecycle.end_match``'s hook: file a tournament match's result and go on (the
    next pairings' matches are created in the same transaction). An aborted match is
    played again: a new match of the same pairing."""
    link = TournamentMatch.objects.filter(match=match, replaced=False).first()
    if link is None:
        return
    tournament = lock_tournament(link.tournament_id)
    if tournament.status != Tournament.RUNNING:
        return
    event = event_of(tournament)
    result = result_of(match, link)
    if result is None:
        link.replaced = True
        link.save(update_fields=["replaced"])
        advance(tournament, event)
    else:
        record_result(tournament, event, link.key, result)


def record_result(tournament: Tournament, event, key: str, result: Result, *, now=None) -> None:
    """File ``result`` for the pairing ``key`` if it is still waiting for one, and go on
    (the caller holds the tournament's lock)."""
    now = now or clock.now()
    if key in {p.key for p in event.pending()}:
        event = (event.record(key, result, now=seconds(now)) if isinstance(event, Arena)
                 else event.record(key, result))
    advance(tournament, event, now=now)


# -- the round deadline ------------------------------------------------------------------------------


def forfeit_absent(*, link_id: int, now=None) -> str | None:
    """At a pairing's deadline: a player who never came loses the match by forfeit, both
    absent is a double forfeit; a match both came to goes on. Returns what was done."""
    now = now or clock.now()
    with transaction.atomic():
        link = TournamentMatch.objects.filter(pk=link_id).first()
        if link is None:
            return None
        match = lock_match(link.match_id)
        if (match.status != Match.PLAYING or link.deadline is None or link.deadline > now or link.replaced
                or Tournament.objects.filter(pk=link.tournament_id, paused_at__isnull=False).exists()):
            return None

        def double_forfeit():  # the match's end (on_match_end) files it as a double forfeit
            link.forced = DOUBLE_FORFEIT
            link.save(update_fields=["forced"])

        done = lifecycle.forfeit_no_show(match, both_reason="neither player came before the round's deadline",
                                         before_abort=double_forfeit)
        return DOUBLE_FORFEIT if done == lifecycle.BOTH_ABSENT else done


def tournament_expire_deadlines(*, now=None) -> int:
    """The periodic job: every tournament match past its deadline (see :func:`forfeit_absent`)."""
    now = now or clock.now()
    due = (TournamentMatch.objects.filter(deadline__lte=now, replaced=False, match__status=Match.PLAYING,
                                          tournament__status=Tournament.RUNNING, tournament__paused_at__isnull=True)
           .values_list("pk", flat=True))
    return sum(1 for pk in list(due) if forfeit_absent(link_id=pk, now=now))


def tournament_tick(*, now=None) -> int:
    """The periodic job of the events that move with time: arenas (pairing the pool,
    closing at the end), and scheduled starts (``services.tournaments.tournament_start_due``)."""
    now = now or clock.now()
    count = 0
    for pk in list(Tournament.objects.filter(status=Tournament.RUNNING, format="arena", paused_at__isnull=True)
                   .values_list("pk", flat=True)):
        with transaction.atomic():
            tournament = lock_tournament(pk)
            if tournament.status == Tournament.RUNNING:
                advance(tournament, event_of(tournament), now=now)
                count += 1
    return count


def running_links(tournament_id: int, player_id: int) -> list:
    """The ids of ``player_id``'s matches of the tournament still being played."""
    return list(TournamentMatch.objects.filter(tournament_id=tournament_id, replaced=False, match__status=Match.PLAYING)
                .filter(Q(match__white_id=player_id) | Q(match__black_id=player_id))
                .values_list("match_id", flat=True))


def check(fn, *args, **kwargs):
    """Call a pure event's method, a refusal as the service error of its code."""
    try:
        return fn(*args, **kwargs)
    except TournamentError as exc:
        raise Conflict(exc.code, str(exc)) from None


__all__ = ["advance", "bump", "tell", "create_pairing_match", "on_match_end", "record_result", "pairing_deadline", "forfeit_absent", "tournament_expire_deadlines",
           "tournament_tick", "lock_tournament", "event_of", "running_links", "check"]
