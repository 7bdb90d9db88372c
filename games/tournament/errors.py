"""The one error of the tournament core: a refused action with a stable ``code``.

It is an :class:`~games.engine.errors.EngineError`, so every adapter that
already answers engine refusals (the bot API, the sockets, the admin) answers
these the same way.

>>> try:
...     raise TournamentError("not_pending", "That match is not waiting for a result.")
... except ValueError as exc:
...     print(exc.code, "-", exc.message)
not_pending - That match is not waiting for a result.
"""

from __future__ import annotations

from games.engine.errors import EngineError, gettext_noop


class TournamentError(EngineError):
    """An action a tournament's rules refuse, or input that cannot be understood."""

    default_code = "tournament_error"


def check_player(player) -> object:
    """Players are opaque ids: a non-empty string or an integer (JSON-ready, hashable)."""
    if type(player) is int or (type(player) is str and player):
        return player
    raise TournamentError("bad_player", gettext_noop("A player id must be an integer or a non-empty string, not %(player)s."),
            params={"player": repr(player)})


def check_int(name: str, value, low: int, high: int) -> int:
    """``value`` as an int within ``low..high``, else a ``bad_option`` error naming ``name``."""
    if type(value) is not int or not low <= value <= high:
        raise TournamentError("bad_option", gettext_noop("%(name)s must be a whole number from %(low)s to %(high)s."),
                params={"name": name, "low": low, "high": high})
    return value
