"""A chouette played on the site: create, join, start, act, time out (docs/CHOUETTE.md,
"Playing it").

Every function is one transaction with the chouette row locked (``select_for_update``
first, then whatever else it writes), like matches: the rules are the pure engine's
(``games.engine.chouette``), the session and the current game are stored as its JSON, and
every accepted action appends :class:`~games.models.ChouetteEvent` rows numbered by the
chouette's ``version`` (one sequence across its games, so a socket resyncs with one
number). An action takes the same steps as a match's (``games.services.records``): the
chouette's row locked, the version checked, the engine's ``apply`` through the one
registry of actions (``games.engine.actions``), a :class:`ChouetteRecord` written and one
typed batch published after the commit, through the same listeners as a match's
(``games.realtime.bridge`` to the sockets, ``games.tasks`` to the workers: house-bot
decisions and cube-decision deadlines).

The server rolls every die: the seating, the opening and each ``roll`` (sent with no
dice, or rolled at once when the roller has nothing to decide first).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.selectors import chouettes as chouette_view
from games.engine.actions import CHOUETTE, UnknownAction, lookup
from games.dice import commitment, new_server_seed
from games.engine import chouette as ce
from games.engine.chouette.rules import CUBE_DECISIONS, ROLL
from games.engine.errors import IllegalAction
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.events import ChouetteWork, Envelope, chouette_group
from games.models import Chouette, ChouetteEvent, ChouetteGame, ChouetteSeat, HouseBot, Player
from games.services.agents import house_bot
from games.services.dice import dice_for
from games.services.lifecycle import player_id_of, valid_id
from games.services.players import require_active
from games.services.records import Record, check_version
from games import conf
from django.utils.translation import gettext

MAX_SEATING_ROUNDS = 100
OPTION_NAMES = ("jacoby", "beaver", "raccoon", "fullConsultation", "cubeLimit", "captainBuys",
                "lastMemberBuys", "settlements", "minPlayers", "maxPlayers")


def absent_after() -> timedelta:
    """How long a member may be away before being dropped from the line between games."""
    return timedelta(seconds=conf.value("GAMES_CHOUETTE_ABSENT_AFTER"))


# -- locks and the events of one action -------------------------------------------------------


def lock_chouette(chouette_id=None, invite_code=None) -> Chouette:
    qs = Chouette.objects.select_for_update(no_key=True)
    try:
        if invite_code is not None:
            return qs.get(invite_code=str(invite_code)[:32])
        return qs.get(pk=valid_id(chouette_id, "chouette_not_found", gettext("No such chouette.")))
    except Chouette.DoesNotExist:
        raise NotFound("chouette_not_found", gettext("No such chouette.")) from None


def current_game(chouette: Chouette) -> ChouetteGame | None:
    return chouette.games.filter(status=ChouetteGame.PLAYING).order_by("-number").first()


class ChouetteRecord(Record):
    """The chouette being changed by one action: its session, its game, and the events it
    writes when the action ends (one insert, one batch published after the commit), like a
    match's record (``games.services.records``). Events are numbered by the chouette's
    version, one sequence across its games."""

    def __init__(self, chouette: Chouette):
        super().__init__(chouette_group(chouette.pk))
        self.chouette = chouette
        self.row = current_game(chouette)
        self.session = ce.ChouetteSession.from_dict(chouette.state) if chouette.state else None
        self.game = ce.ChouetteGame.from_dict(self.row.state) if self.row else None

    def add(self, kind: str, payload: dict, actor=None) -> None:
        self.chouette.version += 1
        self.items.append((self.row, self.chouette.version, kind, payload, player_id_of(actor)))

    def write(self) -> list:
        c = self.chouette
        c.state = self.session.to_dict() if self.session else None
        c.deadline = None
        if self.row is not None and self.game is not None:
            self.row.state = self.game.to_dict()
            self.row.save(update_fields=["state", "dice_counter", "status", "result", "finished_at"])
        if self._playing():
            reasons = {p.reason for p in self.game.pending()}
            if reasons & set(CUBE_DECISIONS):
                c.deadline = timezone.now() + timedelta(seconds=c.decision_seconds)
        c.save(update_fields=["state", "seating", "version", "deadline", "status", "started_at", "finished_at"])
        return ChouetteEvent.objects.bulk_create([
            ChouetteEvent(chouette=c, game=row, version=v, type=kind, payload=payload, actor_id=actor)
            for row, v, kind, payload, actor in self.items])

    def _playing(self) -> bool:
        return self.game is not None and not self.game.is_over and self.chouette.status == Chouette.PLAYING

    def envelopes(self, rows: list) -> list:
        out = []
        for i, ev in enumerate(rows):
            state = None
            if i == len(rows) - 1:  # the state after the action rides on its last event
                state = chouette_view.public_state(self.chouette, self.row, self.session, self.game)
            out.append(Envelope(game=ev.game_id or 0, v=ev.version, t=ev.type, d=ev.payload,
                                actor=ev.actor_id, state=state))
        return out

    def work(self) -> list:
        c = self.chouette
        if not self._playing():
            return []
        return [ChouetteWork(c.pk, c.version, bool(bots_to_act(self.game)), c.deadline)]


def bots_to_act(game: ce.ChouetteGame) -> list:
    """The house-bot players the game waits for now."""
    waiting = [p for p in game.actor_set()]
    return list(HouseBot.objects.filter(player_id__in=waiting).values_list("player_id", flat=True))


# -- the table: create, join, leave, start ----------------------------------------------------


def _rules(options) -> ce.ChouetteRules:
    options = options or {}
    if not isinstance(options, dict) or set(options) - set(OPTION_NAMES):
        raise BadRequest("bad_rules", gettext("Options are an object with keys among %(values)s.")
                % {"values": ', '.join(OPTION_NAMES)})
    data = ce.ChouetteRules().to_dict()
    data.update(options)
    try:
        return ce.ChouetteRules.from_dict(data)
    except (IllegalAction, TypeError, ValueError) as exc:
        raise BadRequest("bad_rules", getattr(exc, "message", str(exc))) from None


def chouette_create(*, player: Player, options=None, private: bool = False, decision_seconds: int = 60) -> Chouette:
    """Open a chouette with ``player`` seated; the others join by the lobby or the invite link.
    A player holds at most ``GAMES_CHOUETTE_OPEN_LIMIT`` public tables where nobody else sits
    (``too_many_open_chouettes``; the player's row is locked so two requests count in turn)."""
    require_active(player)
    rules = _rules(options)
    if type(decision_seconds) is not int or not 5 <= decision_seconds <= 600:
        raise BadRequest("bad_decision_seconds", gettext("A cube decision takes 5 to 600 seconds."))
    with transaction.atomic():
        if not private:
            Player.objects.select_for_update(no_key=True, of=("self",)).filter(pk=player.pk).first()
            limit = conf.value("GAMES_CHOUETTE_OPEN_LIMIT")
            if chouette_view.lonely_tables(player) >= limit:
                raise Conflict("too_many_open_chouettes", gettext("You already have %(limit)s public tables where nobody else sits: wait for players there, or leave one (an empty table closes).")
                        % {"limit": limit})
        c = Chouette.objects.create(created_by=player, rules=rules.to_dict(), private=bool(private),
                                    decision_seconds=decision_seconds, invite_code=secrets.token_urlsafe(12))
        Chouette.objects.select_for_update(no_key=True).get(pk=c.pk)
        ChouetteSeat.objects.create(chouette=c, player=player)
        t = ChouetteRecord(c)
        t.add("chouette_open", {"rules": rules.to_dict(), "by": player.pk}, actor=player)
        t.add("seat", {"player": player.pk, "name": player.display_name}, actor=player)
        t.commit()
    return c


def _seated_ids(c: Chouette) -> list:
    return list(c.seats.filter(active=True).order_by("pk").values_list("player_id", flat=True))


def _seat(t: ChouetteRecord, player: Player) -> None:
    c = t.chouette
    seat, created = ChouetteSeat.objects.get_or_create(chouette=c, player=player)
    if not created and seat.active and c.status == Chouette.OPEN:
        raise Conflict("already_seated", gettext("You are already at this table."))
    if c.status == Chouette.OPEN:
        others = [p for p in _seated_ids(c) if p != player.pk]
        if len(others) + 1 > ce.ChouetteRules.from_dict(c.rules).max_players:
            raise Conflict("table_full", gettext("This chouette is full."))
    elif c.status == Chouette.PLAYING:
        t.session = t.session.join(player.pk)
    else:
        raise Conflict("chouette_over", gettext("This chouette is over."))
    ChouetteSeat.objects.filter(pk=seat.pk).update(active=True, away_since=None)
    t.add("seat", {"player": player.pk, "name": player.display_name,
                   "waiting": bool(t.session and t.session.in_game)}, actor=player)


def chouette_join(*, player: Player, chouette_id=None, invite_code=None) -> Chouette:
    """Sit at a chouette: at the end of the line (after the current game, if one is on). A
    private one takes its invite code, unless the player sat there before (``private_chouette``)."""
    require_active(player)
    with transaction.atomic():
        c = lock_chouette(chouette_id, invite_code)
        if c.private and invite_code is None and not ChouetteSeat.objects.filter(chouette=c, player=player).exists():
            raise Forbidden("private_chouette", gettext("This chouette is private: join it through its invite link."))
        t = ChouetteRecord(c)
        _seat(t, player)
        t.commit()
    return c


def chouette_add_bot(*, chouette_id, player: Player, level: str) -> Player:
    """A seated player sits a house bot at ``level`` at the table."""
    require_active(player)
    bot = house_bot(level=level)
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        if player.pk not in _seated_ids(c):
            raise Forbidden("not_seated", gettext("Only a player at the table may invite a bot."))
        t = ChouetteRecord(c)
        _seat(t, bot)
        t.commit()
    return bot


def chouette_leave(*, chouette_id, player) -> None:
    """Leave the table: at once between games; during a game the engine's ``leave``
    (docs/CHOUETTE.md, "Leaving during a game") and the line after it."""
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        t = ChouetteRecord(c)
        _leave(t, player_id_of(player), reason="left")
        t.commit()


def _leave(t: ChouetteRecord, pid: int, reason: str) -> None:
    c = t.chouette
    if pid not in _seated_ids(c):
        raise Conflict("not_seated", gettext("You are not at this table."))
    ChouetteSeat.objects.filter(chouette=c, player_id=pid).update(active=False)
    t.add("unseat", {"player": pid, "reason": reason}, actor=pid if reason == "left" else None)
    if c.status == Chouette.OPEN and not chouette_view.people_seated(c):  # nobody left to play: it closes
        c.status, c.finished_at = Chouette.FINISHED, timezone.now()
    if t.session is None:
        return
    t.session = t.session.leave(pid)
    if t.game is not None and pid in t.game.players and not t.game.is_over and pid not in t.game.departed:
        t.game = t.game.leave(pid)
        t.add("leave", {"player": pid}, actor=pid)
        _after_action(t)


def chouette_start(*, chouette_id, player) -> Chouette:
    """The creator (or, if he left, anyone seated) starts the chouette: seating by one die
    each (ties roll again), then the first game."""
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        players = _seated_ids(c)
        starter = player_id_of(player)
        rules = ce.ChouetteRules.from_dict(c.rules)
        if starter not in rules.starters(players, c.created_by_id):
            raise Forbidden("not_creator", gettext("The player who opened the chouette starts it (anyone seated, if he left)."))
        if c.status != Chouette.OPEN or c.state is not None:
            raise Conflict("already_started", gettext("This chouette has started."))
        if not rules.may_start_with(players):
            raise Conflict("not_enough_players", gettext("A chouette needs at least %(min_players)s players.")
                    % {"min_players": rules.min_players})
        t = ChouetteRecord(c)
        c.dice_seed, c.dice_counter = new_server_seed(), 0  # the seating's own dice
        source = dice_for(c)
        seating = ce.Seating.start(players)
        for _ in range(MAX_SEATING_ROUNDS):
            if seating.is_done:
                break
            seating = seating.roll({p: source.die() for p in seating.must_roll})
        c.seating = seating.to_dict()
        t.session = ce.ChouetteSession.new(rules, seating.order)
        c.status, c.started_at = Chouette.PLAYING, timezone.now()
        t.add("seating", {"rolls": c.seating["rolls"], "line": list(seating.order), "diceSeed": c.dice_seed})
        _start_game(t)
        t.commit()
    return c


def _start_game(t: ChouetteRecord) -> None:
    c = t.chouette
    t.session, t.game = t.session.start_game()
    number = c.games.count() + 1
    seed = new_server_seed()
    t.row = ChouetteGame.objects.create(chouette=c, number=number, state=t.game.to_dict(), dice_seed=seed,
                                        dice_commitment=commitment(seed))
    t.add("game_start", {"number": number, "box": t.game.box, "team": list(t.game.team),
                         "diceCommitment": t.row.dice_commitment})
    source = dice_for(t.row)
    while t.game.phase == ce.OPENING:
        box_die, team_die = source.die(), source.die()
        t.row.dice_counter = source.counter
        t.game = t.game.opening_roll(box_die=box_die, team_die=team_die)
        t.add("opening_roll", {"box": box_die, "team": team_die})
    _auto_roll(t)


# -- playing ----------------------------------------------------------------------------------


def chouette_act(*, chouette_id, player, action: str, expected_version=None, **fields) -> int:
    """``player`` plays ``action`` (a chouette action of ``games.engine.actions``) in the
    current game. Returns the chouette's version after it. ``expected_version`` refuses a
    stale action, except answers and settlements (``unordered``), which players send at
    the same moment."""
    try:
        spec = lookup(action, CHOUETTE)
    except UnknownAction:
        raise BadRequest("unknown_action", gettext("Unknown chouette action %(value)s.")
                % {"value": repr(str(action)[:30])}) from None
    pid = player_id_of(player)
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        if not spec.unordered:
            check_version(c.version, expected_version, "chouette")
        require_active(Player.objects.get(pk=pid) if pid else None)
        t = ChouetteRecord(c)
        if action == "leave":  # leaving the game is leaving the table (after the game)
            _leave(t, pid, reason="left")
            t.commit()
            return c.version
        if t.game is None:
            raise Conflict("no_game", gettext("No game is being played at this table."))
        if spec.rolls:
            fields = {"dice": _roll(t)}
        before = t.game
        t.game = spec.run(t.game, pid, fields)
        t.add(action, spec.event_payload(before, t.game, pid, fields), actor=pid)
        _after_action(t)
        t.commit()
        return c.version


def _roll(t: ChouetteRecord) -> tuple:
    source = dice_for(t.row)
    dice = source.roll()
    t.row.dice_counter = source.counter
    return tuple(dice)


def _auto_roll(t: ChouetteRecord) -> None:
    """The server rolls for the roller as soon as nobody has a cube decision left."""
    while t.game is not None and t.game.phase == ROLL:
        roller = t.game.roller
        dice = _roll(t)
        t.game = t.game.roll(roller, dice)
        t.add("roll", {"dice": list(dice), "auto": True}, actor=roller)


def _after_action(t: ChouetteRecord) -> None:
    _auto_roll(t)
    if t.game is not None and t.game.is_over:
        _finish_game(t)


def _finish_game(t: ChouetteRecord) -> None:
    c = t.chouette
    result = t.game.result()
    t.row.status, t.row.finished_at = ChouetteGame.FINISHED, timezone.now()
    t.row.result = result.to_dict()
    t.session = t.session.record(result)
    who = chouette_view.names(c)
    t.add("game_end", {"number": t.row.number, "result": result.to_dict(),
                       "lines": result.lines(lambda p: who.get(p, str(p))),
                       "scores": [list(s) for s in t.session.scores], "line": list(t.session.line),
                       "position": t.game.position.to_dict(), "diceSeed": t.row.dice_seed})
    t.row.state = t.game.to_dict()
    t.row.save(update_fields=["state", "dice_counter", "status", "result", "finished_at"])
    _drop_absent(t)
    if t.session.can_start:
        t.row = None
        _start_game(t)
    else:
        c.status = Chouette.OPEN if t.session.line else Chouette.FINISHED
        if c.status == Chouette.FINISHED:
            c.finished_at = timezone.now()
        t.add("paused", {"line": list(t.session.line), "reason": "not_enough_players"})
        t.row, t.game = None, None


def _drop_absent(t: ChouetteRecord) -> None:
    """Between games: members away longer than :func:`absent_after` leave the line."""
    since = timezone.now() - absent_after()
    gone = list(t.chouette.seats.filter(active=True, away_since__lt=since).values_list("player_id", flat=True))
    for pid in gone:
        if pid in t.session.line:
            t.session = t.session.leave(pid)
        ChouetteSeat.objects.filter(chouette=t.chouette, player_id=pid).update(active=False)
        t.add("unseat", {"player": pid, "reason": "absent"})


def chouette_restart(*, chouette_id, player) -> None:
    """Start the next game of a paused chouette (enough players again)."""
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        t = ChouetteRecord(c)
        if t.session is None or c.status != Chouette.OPEN:
            raise Conflict("not_paused", gettext("This chouette is not waiting for players."))
        if player_id_of(player) not in t.session.line:
            raise Forbidden("not_seated", gettext("You are not at this table."))
        if not t.session.can_start:
            raise Conflict("not_enough_players", gettext("Not enough players yet."))
        c.status = Chouette.PLAYING
        _start_game(t)
        t.commit()


# -- the server's clock -------------------------------------------------------------------------


def chouette_timeout(*, chouette_id, version=None, now=None) -> int:
    """The cube decisions still pending at the deadline get their safe answers
    (docs/CHOUETTE.md, "Timeouts"). Returns how many players timed out."""
    now = now or timezone.now()
    with transaction.atomic():
        c = lock_chouette(chouette_id)
        if (version is not None and c.version != version) or c.deadline is None or c.deadline > now:
            return 0
        t = ChouetteRecord(c)
        if t.game is None:
            return 0
        timed_out = 0
        for pid in sorted(t.game.actor_set(), key=str):
            if t.game.timeout_answer(pid):
                t.game = t.game.timeout(pid)
                t.add("timeout", {"player": pid}, actor=None)
                timed_out += 1
        if timed_out:
            _after_action(t)
            t.commit()
        return timed_out


def chouette_expire_deadlines() -> int:
    """Periodic: time out every chouette whose cube-decision deadline passed."""
    due = Chouette.objects.filter(status=Chouette.PLAYING, deadline__lt=timezone.now()).values_list("pk", flat=True)
    return sum(chouette_timeout(chouette_id=pk) for pk in list(due[:100]))


def chouette_drop_absent_movers() -> int:
    """Periodic: a checker play has no safe answer, so a player who must move and has been
    away longer than :func:`absent_after` leaves the game (docs/CHOUETTE.md, "Leaving during
    a game": the next member captains; a box that leaves concedes the board)."""
    since = timezone.now() - absent_after()
    dropped = 0
    ids = (Chouette.objects.filter(status=Chouette.PLAYING, seats__active=True, seats__away_since__lt=since)
           .values_list("pk", flat=True).distinct())
    for pk in list(ids[:100]):
        with transaction.atomic():
            t = ChouetteRecord(lock_chouette(pk))
            if t.game is None:
                continue
            away = set(t.chouette.seats.filter(active=True, away_since__lt=since).values_list("player_id", flat=True))
            movers = [p.player for p in t.game.pending() if p.reason == "move" and p.player in away]
            for pid in movers:
                _leave(t, pid, reason="absent")
            if movers:
                t.commit()
                dropped += len(movers)
    return dropped


def chouettes_bots_waiting(idle: timedelta) -> list:
    """``[(chouette id, version)]`` where a house bot has been expected to act for ``idle``."""
    out = []
    old = timezone.now() - idle
    for c in Chouette.objects.filter(status=Chouette.PLAYING)[:200]:
        last = c.events.order_by("-version").values_list("created_at", flat=True).first()
        row = current_game(c)
        if row is None or (last and last > old):
            continue
        if bots_to_act(ce.ChouetteGame.from_dict(row.state)):
            out.append((c.pk, c.version))
    return out
