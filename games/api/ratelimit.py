"""A per-agent sliding-window rate limit kept in Django's default cache.

``GAMES_API_RATE_LIMIT`` requests (default 20) per ``GAMES_API_RATE_WINDOW`` seconds
(default 1). With the default LocMemCache each server process counts on its own: with
several processes the limit is per process unless a shared cache (Redis, Memcached) is
configured as ``CACHES["default"]``.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache

from .errors import ApiError


def now() -> float:
    """The clock (tests replace it)."""
    return time.time()


def check(key: str) -> None:
    """Count one request for ``key``; raise a 429 :class:`ApiError` once over the limit."""
    limit = getattr(settings, "GAMES_API_RATE_LIMIT", 20)
    window = float(getattr(settings, "GAMES_API_RATE_WINDOW", 1.0))
    if not limit:
        return
    at = now()
    cache_key = f"games-api-rate:{key}"
    hits = [t for t in (cache.get(cache_key) or []) if t > at - window]
    if len(hits) >= limit:
        retry = max(1, math.ceil(hits[0] + window - at))
        raise ApiError(429, "rate_limited",
                       f"Too many requests: at most {limit} per {window:g} s. Retry in {retry} s.",
                       headers={"Retry-After": str(retry)})
    hits.append(at)
    cache.set(cache_key, hits, timeout=math.ceil(window) + 1)
