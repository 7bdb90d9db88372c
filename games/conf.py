"""Every ``GAMES_*`` setting of the site, read in one place with its default.

A setting is read, in this order, from Django's settings (``settings.GAMES_X``: what tests
override), from the environment (``GAMES_X=...``: what operators set; the README's table),
else its default below. Code asks :func:`value` for it by name, and an unknown name is an
error, so a misspelt setting fails at once instead of silently taking a default.

>>> SETTINGS["GAMES_CHAT_LIMIT"].default
5
>>> parse(SETTINGS["GAMES_ANALYSIS_AUTO"], "0"), parse(SETTINGS["GAMES_SEEK_WINDOW"], "150")
(False, 150.0)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class Setting:
    name: str
    default: object
    kind: type
    doc: str


_ALL = [
    # play
    Setting("GAMES_ABSENCE_GRACE", 120, int, "seconds a disconnected player may be away before the opponent may claim"),
    Setting("GAMES_ABANDON_AFTER", 1800, int, "seconds away after which the server closes the match itself"),
    Setting("GAMES_NEXT_GAME_DELAY", 8.0, float, "seconds the end of a game stays on screen"),
    Setting("GAMES_MAX_BOT_MATCHES", 2, int, "matches against the computer one player may have running at once"),
    Setting("GAMES_SEEK_WINDOW", 200.0, float, "quick pairing: rating points apart that may pair at first"),
    Setting("GAMES_SEEK_WIDEN", 50.0, float, "quick pairing: points added every 10 s of waiting"),
    Setting("GAMES_QUEUE_TIMEOUT", 300, int, "seconds a matchmaking queue entry lives after its last join or poll"),
    Setting("GAMES_CHOUETTE_ABSENT_AFTER", 120, int, "seconds a chouette member may be away before leaving the line"),
    Setting("GAMES_CORR_GRACE", 86400, int, "seconds after a correspondence player's time ran out before the "
            "server awards the match to the opponent (who may claim it from the deadline)"),
    Setting("GAMES_DICE_SOURCE", "games.services.dice.seeded_dice", str, "dotted path of a factory f(game) -> dice"),
    Setting("GAMES_VACATION_DAYS", 30, int, "days of vacation a player may take each year (correspondence)"),
    # notices by e-mail (games.services.notices)
    Setting("GAMES_SITE_URL", "http://127.0.0.1:8000", str, "the site's address, for the links in e-mails"),
    Setting("GAMES_NOTICE_DELAY", 300, int, "seconds a correspondence turn waits before its player is e-mailed"),
    Setting("GAMES_NOTICE_QUIET", 43200, int, "seconds at least between two 'your turn' e-mails to one player"),
    Setting("GAMES_NOTICE_LOW", 43200, int, "seconds before a correspondence deadline when 'time running low' is sent"),
    Setting("GAMES_DIGEST_PERIOD", 86400, int, "seconds a notice held for a daily digest waits at most (one digest per period)"),
    Setting("GAMES_VAPID_PUBLIC_KEY", "", str, "Web Push: the VAPID public key (base64url); empty: no push"),
    Setting("GAMES_VAPID_PRIVATE_KEY", "", str, "Web Push: the VAPID private key (base64url DER or PEM)"),
    Setting("GAMES_VAPID_SUBJECT", "mailto:admin@localhost", str, "Web Push: the VAPID contact (mailto: or https:)"),
    # house bots
    Setting("GAMES_BOT_TIME_LIMIT", 10.0, float, "seconds a house bot may think before it plays the fallback"),
    Setting("GAMES_BOT_STRATEGY", "", str, "dotted path of a decide() replacing the bots' (tests only)"),
    # analysis
    Setting("GAMES_ANALYSIS_DEPTH", 2, int, "plies of the automatic analysis of every finished match (0-3)"),
    Setting("GAMES_ANALYSIS_AUTO", True, bool, "analyse every finished match automatically"),
    # fair long work and hints (docs/SECURITY.md, "Fair use")
    Setting("GAMES_JOBS_PER_USER", 2, int, "analyses one player may have queued or running at once"),
    Setting("GAMES_AUTO_JOBS_AT_ONCE", 1, int, "automatic analyses running at once, site-wide (the other long threads stay free for players' own requests; 0: no cap)"),
    Setting("GAMES_JOB_TIME_LIMIT", 600.0, float, "seconds a long job may run before it is stopped (timed_out)"),
    Setting("GAMES_UPLOAD_LIMIT", 10, int, ".mat uploads per player per window"),
    Setting("GAMES_UPLOAD_WINDOW", 3600.0, float, "seconds of the upload window"),
    Setting("GAMES_HINT_LIMIT", 20, int, "hints and tutor checks per player per window"),
    Setting("GAMES_HINT_WINDOW", 60.0, float, "seconds of the hint window"),
    Setting("GAMES_HINT_BUDGET", 2.0, float, "seconds a hint may take before it is refused (hint_timeout)"),
    Setting("GAMES_HINT_THREADS", 2, int, "threads of a web process that compute hints (more at once: hints_busy)"),
    # realtime
    Setting("GAMES_WS_FLOOD_LIMIT", 40, int, "messages per 2 s on one socket (three times that closes it, 4008)"),
    Setting("GAMES_CHAT_LIMIT", 5, int, "chat lines per 10 seconds"),
    Setting("GAMES_DELIVERY_CHECK", 1.0, float, "seconds between a web process's delivery checks"),
    Setting("GAMES_SERVER_PING", 5.0, float, "seconds of silence on a socket before the server pings its client with the version (0: never)"),
    Setting("GAMES_PRESENCE_HEARTBEAT", 15.0, float, "seconds between the presence heartbeats of a socket"),
    Setting("GAMES_PRESENCE_STALE_AFTER", 45.0, float, "seconds without a heartbeat after which a presence row is swept"),
    Setting("GAMES_LONG_POLL_RECHECK", 1.0, float, "seconds between two database reads of a waiting long poll"),
    Setting("GAMES_DB_IN_LOOP", None, bool, "websocket database calls in the event loop's thread (default: on SQLite)"),
    Setting("GAMES_DB_THREADS", 2, int, "PostgreSQL: the process's own threads for the sockets' database calls"),
    # workers
    Setting("GAMES_PERIODIC_SCALE", 1.0, float, "multiplies every interval of the workers' periodic work (tests)"),
    # abuse limits (docs/SECURITY.md)
    Setting("GAMES_API_RATE_LIMIT", 20, int, "bot API requests per agent per window"),
    Setting("GAMES_API_RATE_WINDOW", 1.0, float, "seconds of the bot API's rate window"),
    Setting("GAMES_LOGIN_LIMIT", 10, int, "failed logins per account per window"),
    Setting("GAMES_LOGIN_IP_LIMIT", 50, int, "failed logins per address per window"),
    Setting("GAMES_LOGIN_WINDOW", 900.0, float, "seconds of the login window"),
    Setting("GAMES_SIGNUP_LIMIT", 10, int, "sign-ups per address per window"),
    Setting("GAMES_SIGNUP_WINDOW", 3600.0, float, "seconds of the sign-up window"),
    Setting("GAMES_GUEST_LIMIT", 10, int, "guest players made per address per window"),
    Setting("GAMES_GUEST_WINDOW", 3600.0, float, "seconds of the guest window"),
    Setting("GAMES_CHOUETTE_OPEN_LIMIT", 3, int, "public chouettes a player may hold open with nobody else seated"),
]

#: Every setting by name.
SETTINGS = {s.name: s for s in _ALL}

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def parse(setting: Setting, raw: str):
    """The value of ``raw`` (an environment variable's text) for ``setting``."""
    if setting.kind is bool:
        text = raw.strip().lower()
        if text not in _TRUE + _FALSE:
            raise ValueError(f"{setting.name} must be 1 or 0, not {raw!r}")
        return text in _TRUE
    return setting.kind(raw)


def value(name: str):
    """The current value of setting ``name`` (a ``KeyError`` for a name not in the table)."""
    setting = SETTINGS[name]
    found = getattr(settings, name, None)
    if found is not None:
        return found
    raw = os.environ.get(name)
    if raw is not None and raw.strip() != "":
        return parse(setting, raw)
    if name == "GAMES_DB_IN_LOOP":  # on by default where the database is a file of this machine
        return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    return setting.default
