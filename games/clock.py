"""Clocks: a per-move delay plus a time bank per match point; the server keeps time.

While it is a player's decision (roll or double, move, take or drop, answer a
resignation) their clock runs: the first ``clock_delay`` seconds are free,
then the bank drains. ``clock_deadline`` on the game row is when the bank runs
out; :func:`games.services.sweep` forfeits the match of a player whose
deadline has passed. Tests move time with :func:`freeze` instead of sleeping.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import conf

_frozen = None


def now():
    """The service layer's clock (a test may freeze it)."""
    return _frozen if _frozen is not None else timezone.now()


@contextmanager
def freeze(moment):
    """Within the block :func:`now` returns ``moment``."""
    global _frozen
    previous = _frozen
    _frozen = moment
    try:
        yield moment
    finally:
        _frozen = previous


DAY = 86_400  # seconds

#: The named live clocks (seconds of delay per decision, seconds of bank per match point)
#: offered by the lobby's new-match form and chosen by a tournament (docs/TOURNAMENTS.md,
#: "Clocks"). A preset is a shortcut for the two numbers a match keeps; renaming one would
#: change what stored tournaments mean, so names are only ever added.
CLOCK_PRESETS = {
    "bullet": (8, 30),
    "blitz": (12, 60),
    "rapid": (15, 120),
    "standard": (20, 180),
}


PRESET_LABELS = {"bullet": gettext_lazy("Bullet"), "blitz": gettext_lazy("Blitz"), "rapid": gettext_lazy("Rapid"),
                 "standard": gettext_lazy("Standard")}


def preset(name):
    """The ``(delay, bank per point)`` of a clock preset (None when there is no such preset)."""
    return CLOCK_PRESETS.get(name) if isinstance(name, str) else None


def preset_choices() -> list:
    """The presets as the forms offer them: ``[{"name", "label", "delay", "bank"}]``."""
    return [{"name": name, "label": PRESET_LABELS.get(name, name), "delay": delay, "bank": bank}
            for name, (delay, bank) in CLOCK_PRESETS.items()]
CORR_DAYS = (1, 2, 3, 5)  # the days per move a correspondence match may give
CORR_MAX_BANK_DAYS = 30


def is_correspondence(match) -> bool:
    """A match played over days (docs/CORRESPONDENCE.md): days per move plus a bank in days."""
    return bool(getattr(match, "corr_days", 0))


def has_clock(match) -> bool:
    return bool(match.clock_delay or match.clock_bank or is_correspondence(match))


def delay_seconds(match) -> int:
    """The free time of each decision: the delay, or a correspondence match's days per move."""
    return match.corr_days * DAY if is_correspondence(match) else match.clock_delay


def initial_bank_ms(match) -> int:
    """A match's bank: ``clock_bank`` seconds per point (one point's worth per money game);
    a correspondence match's bank is ``corr_bank_days`` for the whole match."""
    if is_correspondence(match):
        return match.corr_bank_days * DAY * 1000
    return match.clock_bank * 1000 * max(match.length, 1)


def claim_grace():
    """How long after a correspondence player's time ran out the server awards the match."""
    return timedelta(seconds=int(conf.value("GAMES_CORR_GRACE")))


def expires_at(game, match):
    """When the player on the clock loses on time: at the deadline for a live clock; for a
    correspondence match the opponent may claim from the deadline, and the server awards the
    match ``GAMES_CORR_GRACE`` later (the late player may still play until then)."""
    if game.clock_deadline is None:
        return None
    if is_correspondence(match):
        return game.clock_deadline + claim_grace()
    return game.clock_deadline


def bank_ms(match, color: str) -> int:
    return match.white_bank_ms if color == "white" else match.black_bank_ms


def charge(game, match, color: str, at) -> None:
    """Stop ``color``'s running clock at ``at``: time past the delay comes off the bank."""
    if not has_clock(match) or game.clock_color != color or game.clock_started_at is None:
        return
    elapsed = int((at - game.clock_started_at).total_seconds() * 1000)
    used = max(0, elapsed - delay_seconds(match) * 1000)
    remaining = max(0, bank_ms(match, color) - used)
    if color == "white":
        match.white_bank_ms = remaining
    else:
        match.black_bank_ms = remaining
    match.save(update_fields=["white_bank_ms", "black_bank_ms"])
    game.clock_color = ""
    game.clock_started_at = None
    game.clock_deadline = None
    game.clock_warned = False


def start(game, match, actor: str | None, at) -> None:
    """Start ``actor``'s clock (no clock when the game is over or the match has none)."""
    if not has_clock(match) or actor is None or game.status != "playing":
        game.clock_color, game.clock_started_at, game.clock_deadline = "", None, None
        return
    if game.clock_color == actor and game.clock_started_at is not None:
        return  # still the same decision (e.g. an automatic roll): the clock keeps running
    away = getattr(match.player_of(actor), "vacation_until", None) if is_correspondence(match) else None
    if away is not None and away > at:
        at = away  # on vacation: the turn's time starts when the vacation ends
    game.clock_color = actor
    game.clock_warned = False
    game.clock_started_at = at
    game.clock_deadline = at + timedelta(milliseconds=delay_seconds(match) * 1000 + bank_ms(match, actor))


def clock_dict(game, match) -> dict | None:
    """The clocks as every snapshot shows them."""
    if not has_clock(match):
        return None
    corr = None
    if is_correspondence(match):
        ends = expires_at(game, match)
        corr = {"daysPerMove": match.corr_days, "bankDays": match.corr_bank_days,
                "awardAt": ends.isoformat() if ends else None}
    return {
        "delay": delay_seconds(match),
        "bankPerPoint": match.clock_bank,
        "white": match.white_bank_ms,
        "black": match.black_bank_ms,
        "running": game.clock_color or None,
        "startedAt": game.clock_started_at.isoformat() if game.clock_started_at else None,
        "deadline": game.clock_deadline.isoformat() if game.clock_deadline else None,
        "serverTime": now().isoformat(),
        "correspondence": corr,
    }
