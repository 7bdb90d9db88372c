"""Agents (programs playing through the HTTP bot API), house bots and the matchmaking queue.

Same style as the rest of the service layer: keyword-only arguments, one
transaction per call, typed errors with stable codes (``games.errors``), and a
refused call changes nothing.

The queue ("quick pairing" in the lobby) is first come, first served per match length,
among players whose ratings are close: within ``GAMES_SEEK_WINDOW`` points (default 200),
a window that widens by ``GAMES_SEEK_WIDEN`` (default 50) every 10 seconds of waiting.
Guests cannot queue (its matches are rated). Pairing locks both
queue rows (in primary-key order, so two pairings never deadlock) and re-checks
them under the lock, so two concurrent requests can never both take the same
waiting player. A waiting entry stays alive while its owner polls it; it expires
``GAMES_QUEUE_TIMEOUT`` seconds (default 300) after the last join or status poll
and then answers ``{"status": "expired"}`` until the player joins again.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.bots.levels import house_bot_name, level_names
from games.errors import BadRequest, Conflict, Forbidden
from games.text import clean_text
from games.models import Agent, HouseBot, Match, Player, QueueEntry
from games.services.matches import match_create, match_join
from games.services.players import player_register, require_active
from games import conf
from django.utils.translation import gettext, ngettext

GAMES = ("backgammon",)
MAX_QUEUE_LENGTH = 25
KEY_PREFIX = "bgk_"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]{0,39}$")
MAX_DESCRIPTION = 500


# -- keys ------------------------------------------------------------------------------------


def hash_key(key: str) -> str:
    """The stored form of an API key: SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    """A fresh API key: a prefix plus 32 random bytes (URL-safe base64)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


# -- agents ----------------------------------------------------------------------------------


def agent_register(*, name, description=None) -> tuple:
    """Register an agent: a bot :class:`Player` with an API key.

    Returns ``(agent, key)``; the key is not stored (only its hash) and cannot be
    shown again. Refusals: ``bad_name``, ``bad_description``, ``name_taken``.
    """
    if not isinstance(name, str) or not NAME_RE.match(name.strip()) or name != name.strip():
        raise BadRequest(
            "bad_name",
            gettext("'name' must be 1 to 40 characters: letters, digits, spaces, '_', '-' or '.', starting with a letter or digit."),
        )
    if description is None:
        description = ""
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        raise BadRequest("bad_description", gettext("'description' must be a string of at most %(MAX_DESCRIPTION)s characters.")
                % {"MAX_DESCRIPTION": MAX_DESCRIPTION})
    description = clean_text(description, field="description", code="bad_description", collapse=False,
                             allow_empty=True)
    key = new_key()
    with transaction.atomic():
        player = player_register(username=name, password=None, display_name=name, is_bot=True)
        agent = Agent.objects.create(player=player, key_hash=hash_key(key), key_prefix=key[:10],
                                     description=description)
    return agent, key


# -- house bots ------------------------------------------------------------------------------


def _check_level(level) -> str:
    names = level_names()
    if not isinstance(level, str) or level not in names:
        raise BadRequest("unknown_level", gettext("Unknown bot level %(value)s: use one of %(values)s.")
                % {"value": repr(str(level)[:40]), "values": ', '.join(names)})
    return level


def house_bot(*, level, number: int = 1) -> Player:
    """The house bot player at ``level``, created on first use (safe under concurrency).
    ``number`` 2, 3...: more players of the same level (a tournament filled with bots)."""
    level = _check_level(level)
    if type(number) is not int or not 1 <= number <= 999:
        raise BadRequest("bad_number", gettext("A house bot's number is a whole number from 1 to 999."))
    existing = HouseBot.objects.select_related("player").filter(level=level, number=number).first()
    if existing is not None:
        return existing.player
    username = f"house:{level}" if number == 1 else f"house:{level}:{number}"
    name = house_bot_name(level)
    if number > 1:
        name = f"{level.replace('_', ' ').capitalize()[:24]} {number} (house bot)"
    try:
        with transaction.atomic():
            player = player_register(username=username, password=None, display_name=name, is_bot=True,
                                     reserved_ok=True)
            HouseBot.objects.create(player=player, level=level, number=number)
            return player
    except (IntegrityError, BadRequest):  # created meanwhile by another request
        return HouseBot.objects.select_related("player").get(level=level, number=number).player


def house_bot_level(player) -> str | None:
    """The level of a house bot player, else None."""
    pid = getattr(player, "pk", player)
    return HouseBot.objects.filter(player_id=pid).values_list("level", flat=True).first()


def _check_length(length) -> int:
    if type(length) is not int or not 1 <= length <= MAX_QUEUE_LENGTH:
        raise BadRequest("bad_length", gettext("'matchLength' must be a whole number from 1 to %(MAX_QUEUE_LENGTH)s.")
                % {"MAX_QUEUE_LENGTH": MAX_QUEUE_LENGTH})
    return length


def bot_match_limit() -> int:
    """How many matches against the computer one player may have running at once."""
    return int(conf.value("GAMES_MAX_BOT_MATCHES"))


def check_bot_match_limit(player: Player) -> None:
    """Refuse a new match against the computer (``too_many_bot_matches``) when ``player``
    already plays ``GAMES_MAX_BOT_MATCHES`` of them. The player's row is locked first, so two
    requests at once cannot both pass the check."""
    Player.objects.select_for_update(no_key=True, of=("self",)).filter(pk=player.pk).first()
    running = (Match.objects.filter(status__in=[Match.OPEN, Match.PLAYING])
               .filter(Q(white=player, black__housebot__isnull=False) | Q(black=player, white__housebot__isnull=False))
               .count())
    limit = bot_match_limit()
    if running >= limit:
        raise Conflict("too_many_bot_matches",
                       ngettext("You already have %(running)s game against the computer running (at most %(limit)s at once): "
                                "finish or leave one first.",
                                "You already have %(running)s games against the computer running (at most %(limit)s at "
                                "once): finish or leave one first.", running) % {"running": running, "limit": limit})


def match_vs_bot(*, player: Player, level, length: int = 1, **options) -> Match:
    """Play the computer: a started match of ``player`` (White's seat) against the house bot
    at ``level``. ``options`` are :func:`~games.services.match_create`'s (cube, crawford...).
    The bots runner (``games.bots.runner``) plays the bot's turns."""
    require_active(player)
    level = _check_level(level)
    if type(length) is not int or not 0 <= length <= MAX_QUEUE_LENGTH:
        raise BadRequest("bad_length", gettext("The match length must be a whole number from 0 to %(MAX_QUEUE_LENGTH)s.")
                % {"MAX_QUEUE_LENGTH": MAX_QUEUE_LENGTH})
    with transaction.atomic():
        bot = house_bot(level=level)
        if bot.pk == player.pk:
            raise Conflict("own_match", gettext("A house bot cannot play itself."))
        check_bot_match_limit(player)
        match = match_create(creator=player, length=length, **options)
        return match_join(player=bot, match_id=match.pk)


# -- the matchmaking queue ---------------------------------------------------------------------


def queue_timeout() -> timedelta:
    return timedelta(seconds=conf.value("GAMES_QUEUE_TIMEOUT"))


def _status(entry: QueueEntry | None) -> dict:
    if entry is None:
        return {"status": "none"}
    if entry.status == QueueEntry.MATCHED:
        return {"status": "matched", "matchId": entry.match_id}
    if entry.status == QueueEntry.EXPIRED:
        return {"status": "expired"}
    return {"status": "queued", "matchLength": entry.length}


def _lock_entry(player: Player, *, create: bool = False) -> QueueEntry | None:
    """Lock the player's queue entry (serialising their own queue requests), creating an
    idle one first when ``create`` and there is none. Locks no player row (lock order:
    queue entries before players, ``services.lifecycle``)."""
    for _attempt in range(5):
        entry = QueueEntry.objects.select_for_update(of=("self",)).filter(player=player).first()
        if entry is not None or not create:
            return entry
        now = timezone.now()
        try:
            with transaction.atomic():  # made in this transaction: nobody else sees it, it needs no lock
                return QueueEntry.objects.create(player=player, status=QueueEntry.EXPIRED, queued_at=now, seen_at=now)
        except IntegrityError:
            continue  # made meanwhile by the player's other request (and maybe left again since): look again
    raise Conflict("queue_busy", gettext("The queue changed under us: try again."))


def _match_in_progress(entry: QueueEntry) -> bool:
    return (entry.status == QueueEntry.MATCHED and entry.match_id is not None
            and Match.objects.filter(pk=entry.match_id, status__in=[Match.OPEN, Match.PLAYING]).exists())


def rating_window(waited: timedelta) -> float:
    """How far apart two ratings may be to pair: ``GAMES_SEEK_WINDOW`` points at first,
    widening by ``GAMES_SEEK_WIDEN`` points for every 10 seconds waited (so nobody waits
    forever for an exact match)."""
    base = float(conf.value("GAMES_SEEK_WINDOW"))
    widen = float(conf.value("GAMES_SEEK_WIDEN"))
    return base + widen * max(0.0, waited.total_seconds()) / 10


def _try_pair(entry: QueueEntry, now) -> QueueEntry:
    """Pair a waiting ``entry`` with the longest-waiting compatible entry, if any: the same
    game and length, and a rating within the window of the longer wait of the two."""
    fresh = now - queue_timeout()
    rating = Player.objects.filter(pk=entry.player_id).values_list("rating", flat=True).get()
    window = rating_window(now - entry.queued_at)
    # the other's own wait widens the window too: take the largest a candidate could have
    oldest = (QueueEntry.objects.filter(status=QueueEntry.WAITING, game=entry.game, length=entry.length)
              .exclude(pk=entry.pk).order_by("queued_at").values_list("queued_at", flat=True).first())
    if oldest is not None:
        window = max(window, rating_window(now - oldest))
    candidates = (QueueEntry.objects.filter(status=QueueEntry.WAITING, game=entry.game, length=entry.length,
                                            seen_at__gte=fresh, player__suspended=False,
                                            player__rating__gte=rating - window, player__rating__lte=rating + window)
                  .exclude(pk=entry.pk).order_by("queued_at", "pk"))
    fits = [pk for pk, queued_at, other_rating in candidates.values_list("pk", "queued_at", "player__rating")
            if abs(other_rating - rating) <= max(rating_window(now - entry.queued_at), rating_window(now - queued_at))]
    if not fits:
        return entry
    other_id = fits[0]
    # Our own entry is locked already. Lock the candidate without waiting: if another
    # request holds it (that player is queueing right now), skip it rather than wait (two
    # such requests would wait on each other); the next join or poll pairs them.
    other = (QueueEntry.objects.select_for_update(skip_locked=True, of=("self",)).select_related("player")
             .filter(pk=other_id, status=QueueEntry.WAITING, seen_at__gte=fresh).first())
    if other is None:
        return entry
    mine = entry
    first, second = sorted([mine, other], key=lambda e: (e.queued_at, e.pk))
    match = match_create(creator=first.player, length=entry.length)
    match_join(player=second.player, match_id=match.pk)
    changed = QueueEntry.objects.filter(pk__in=[mine.pk, other.pk], status=QueueEntry.WAITING).update(
        status=QueueEntry.MATCHED, match=match)
    if changed != 2:  # pragma: no cover - the row locks make this impossible; roll everything back
        raise Conflict("queue_busy", gettext("The queue changed under us: try again."))
    mine.status, mine.match = QueueEntry.MATCHED, match
    return mine


def queue_join(*, player: Player, game="backgammon", length=1, opponent=None) -> dict:
    """Join the matchmaking queue (or be matched at once).

    ``opponent``: a house-bot level, to be matched immediately against that bot.
    Joining again while queued does not queue twice (it refreshes the entry; a
    different length moves the player to the back of that length's queue); while a
    queue-made match is in progress, joining answers that match.
    Answers ``{"status": "queued", "matchLength"}`` or ``{"status": "matched", "matchId"}``.
    """
    require_active(player)
    if player.is_guest:
        raise Forbidden("guest_not_allowed", gettext("Quick pairing plays rated matches: sign up to use it."))
    if game not in GAMES:
        raise BadRequest("unknown_game", gettext("Unknown game %(value)s: this server plays %(values)s.")
                % {"value": repr(str(game)[:40]), "values": ', '.join(GAMES)})
    length = _check_length(length)
    if opponent is not None:
        _check_level(opponent)
    now = timezone.now()
    with transaction.atomic():
        entry = _lock_entry(player, create=True)
        if _match_in_progress(entry):
            return _status(entry)
        if opponent is not None:
            match = match_vs_bot(player=player, level=opponent, length=length)
            entry = _save_entry(entry, player, game, length, QueueEntry.MATCHED, match, now)
            return _status(entry)
        fresh = entry is not None and entry.status == QueueEntry.WAITING and entry.seen_at >= now - queue_timeout()
        if fresh and entry.length == length and entry.game == game:
            entry.seen_at = now
            entry.save(update_fields=["seen_at"])
        else:
            entry = _save_entry(entry, player, game, length, QueueEntry.WAITING, None, now)
        return _status(_try_pair(entry, now))


def _save_entry(entry, player, game, length, status, match, now) -> QueueEntry:
    if entry is None:
        return QueueEntry.objects.create(player=player, game=game, length=length, status=status, match=match,
                                         queued_at=now, seen_at=now)
    entry.game, entry.length, entry.status, entry.match = game, length, status, match
    entry.queued_at = entry.seen_at = now
    entry.save(update_fields=["game", "length", "status", "match", "queued_at", "seen_at"])
    return entry


def queue_status(*, player: Player) -> dict:
    """The caller's queue status; a poll keeps a waiting entry alive and retries pairing.
    ``{"status": "none" | "queued" | "matched" | "expired", ...}``."""
    now = timezone.now()
    with transaction.atomic():
        entry = _lock_entry(player)
        if entry is None or entry.status != QueueEntry.WAITING:
            return _status(entry)
        if entry.seen_at < now - queue_timeout() or player.suspended:
            entry.status = QueueEntry.EXPIRED
            entry.save(update_fields=["status"])
            return _status(entry)
        entry.seen_at = now
        entry.save(update_fields=["seen_at"])
        return _status(_try_pair(entry, now))


def queue_leave(*, player: Player) -> dict:
    """Leave the queue: ``{"status": "left"}`` when a waiting entry was removed, else the
    status unchanged (a match already made goes on: leave it through the match instead)."""
    with transaction.atomic():
        entry = _lock_entry(player)
        if entry is None:
            return {"status": "none"}
        if entry.status == QueueEntry.MATCHED and _match_in_progress(entry):
            return _status(entry)
        was_waiting = entry.status == QueueEntry.WAITING
        entry.delete()
        return {"status": "left"} if was_waiting else {"status": "none"}


def queue_expire(*, now=None) -> int:
    """Mark every stale waiting entry expired (optional housekeeping; pairing already skips them)."""
    at = now or timezone.now()
    return QueueEntry.objects.filter(status=QueueEntry.WAITING, seen_at__lt=at - queue_timeout()).update(
        status=QueueEntry.EXPIRED)
