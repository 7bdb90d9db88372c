"""Counters of abuse limits kept in Django's cache, shared by every process when the cache is.

``CACHES["default"]`` is Redis (``django.core.cache.backends.redis.RedisCache``) when
``REDIS_URL`` is set, so the bot API's rate limit and the login and sign-up throttles hold
across all web processes and machines; the embedded default (one process) keeps them in
memory. Each limit counts hits in fixed windows of ``window`` seconds with ``cache.add``
then ``cache.incr``, both atomic on Redis, so concurrent requests never lose a count.

The limits (docs/SECURITY.md): ``GAMES_LOGIN_LIMIT`` failed logins per account and
``GAMES_LOGIN_IP_LIMIT`` per address per ``GAMES_LOGIN_WINDOW`` seconds, and
``GAMES_SIGNUP_LIMIT`` sign-ups per address per ``GAMES_SIGNUP_WINDOW`` seconds, and
``GAMES_GUEST_LIMIT`` guests made per address per ``GAMES_GUEST_WINDOW`` seconds.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.core.cache import cache
from games import conf


def _key(name: str, window: float, at: float) -> str:
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # any text, fixed length
    return f"throttle:{digest}:{int(at // window)}"


def _retry(window: float, at: float) -> int:
    return max(1, math.ceil((int(at // window) + 1) * window - at))


def count(name: str, window: float, *, now: float | None = None) -> int:
    """The hits counted for ``name`` in the current window."""
    at = time.time() if now is None else now
    return int(cache.get(_key(name, window, at)) or 0)


def hit(name: str, limit: int, window: float, *, now: float | None = None) -> int | None:
    """Count one hit for ``name``; None while within ``limit``, else the seconds to wait."""
    at = time.time() if now is None else now
    key = _key(name, window, at)
    cache.add(key, 0, timeout=math.ceil(window) + 1)
    try:
        hits = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=math.ceil(window) + 1)
        hits = 1
    return _retry(window, at) if hits > limit else None


def blocked(names, limit: int, window: float) -> int | None:
    """Seconds to wait when any of ``names`` already reached ``limit`` in this window, else None."""
    at = time.time()
    if any(count(name, window, now=at) >= limit for name in names):
        return _retry(window, at)
    return None


def client_address(request) -> str:
    """The client's address (``REMOTE_ADDR``; behind the proxy Daphne's ``--proxy-headers`` sets it)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


# -- the login and sign-up throttles -------------------------------------------------------------


def login_limits() -> tuple:
    return (conf.value("GAMES_LOGIN_LIMIT"), conf.value("GAMES_LOGIN_IP_LIMIT"),
            float(conf.value("GAMES_LOGIN_WINDOW")))


def login_names(request, username) -> tuple:
    return (f"login-account:{str(username or '').casefold()}", f"login-ip:{client_address(request)}")


def login_blocked(request, username) -> int | None:
    """Seconds to wait before this account or address may try to log in again, else None."""
    per_account, per_ip, window = login_limits()
    account, address = login_names(request, username)
    return blocked([account], per_account, window) or blocked([address], per_ip, window)


def login_failed(request, username) -> None:
    per_account, per_ip, window = login_limits()
    account, address = login_names(request, username)
    hit(account, per_account, window)
    hit(address, per_ip, window)


def signup_hit(request) -> int | None:
    """Count a sign-up attempt from this address; the seconds to wait once over the limit."""
    return hit(f"signup-ip:{client_address(request)}", conf.value("GAMES_SIGNUP_LIMIT"),
               float(conf.value("GAMES_SIGNUP_WINDOW")))


def guest_hit(request) -> int | None:
    """Count a guest made from this address ("Play now as a guest"); the seconds to wait once
    over the limit."""
    return hit(f"guest-ip:{client_address(request)}", conf.value("GAMES_GUEST_LIMIT"),
               float(conf.value("GAMES_GUEST_WINDOW")))


__all__ = ["count", "hit", "blocked", "client_address", "login_blocked", "login_failed", "signup_hit", "guest_hit"]
