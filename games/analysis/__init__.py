"""Match analysis, hints and the tutor's check (bgsage), without Django.

Plain data in, JSON-ready dicts out; the JSON shape is ``docs/ANALYSIS.md``.

Usage::

    from games.analysis import analyse_game, analyse_match, match_summary
    game = analyse_game(events, ply=2, progress=lambda f, msg: None)

* :func:`analyse_game` / :func:`analyse_match` / :func:`match_summary` -- every decision
  of a game (checker plays, cube decisions, luck), per-player statistics (error rate,
  PR, cube errors, luck), progress callbacks; a game needs only its own events.
* :func:`hint`, :func:`check_play`, :func:`check_cube` -- for a game in progress.
* :mod:`games.analysis.sage_eval` is the only module that knows bgsage.
"""

from .errors import AnalysisError
from .game import ALTERNATIVES, DEFAULT_PLY, FORMAT, analyse_game, analyse_match, match_summary
from .hints import HINT_PLY, check_cube, check_play, hint
from .marks import is_close_cube, luck_mark, rating, skill_mark

__all__ = [
    "AnalysisError", "ALTERNATIVES", "DEFAULT_PLY", "FORMAT", "HINT_PLY",
    "analyse_game", "analyse_match", "match_summary", "hint", "check_play", "check_cube",
    "is_close_cube", "luck_mark", "rating", "skill_mark",
]
