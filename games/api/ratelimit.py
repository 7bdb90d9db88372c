"""A per-agent (and per-address) rate limit on the shared cache (``games.throttle``).

``GAMES_API_RATE_LIMIT`` requests (default 20) per ``GAMES_API_RATE_WINDOW`` seconds
(default 1), counted in Django's default cache: Redis when ``REDIS_URL`` is set, so the
limit holds across every web process; in memory in the one-process embedded default.
"""

from __future__ import annotations

import time


from games import throttle
from games.api.errors import ApiError
from games import conf
from django.utils.translation import gettext


def now() -> float:
    """The clock (tests replace it)."""
    return time.time()


def check(key: str) -> None:
    """Count one request for ``key``; raise a 429 :class:`ApiError` once over the limit."""
    limit = conf.value("GAMES_API_RATE_LIMIT")
    window = float(conf.value("GAMES_API_RATE_WINDOW"))
    if not limit:
        return
    retry = throttle.hit(f"api:{key}", limit, window, now=now())
    if retry is not None:
        raise ApiError(429, "rate_limited",
                       gettext("Too many requests: at most %(limit)s per %(window)s s. Retry in %(retry)s s.")
                               % {"limit": limit, "window": format(window, 'g'), "retry": retry},
                       headers={"Retry-After": str(retry)})
