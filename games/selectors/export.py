"""Exports of finished (or running) matches for other backgammon software.

:func:`match_to_mat` writes a match as a Jellyfish ``.mat`` text file, the
format GNU Backgammon imports with ``import mat FILE`` (and writes with
``export match mat FILE``); the layout and what the format cannot carry are
described in :mod:`games.interchange.mat_write` (pure, no database).
:func:`game_position_ids` lists GNU Backgammon's Position ID and Match ID after
every event of a game (:func:`games.engine.gnubgid.state_ids`).

Money sessions are written as ``0 point match``, which gnubg imports as a money
session; the file cannot say whether the Jacoby rule was on (import it with the
matching ``set jacoby`` for gnubg to score gammons the same way).
"""

from __future__ import annotations

from games.interchange.ids import events_position_ids
from games.interchange.mat_write import COLUMN, NotExportable, mat_name, write_mat
from games.models import Game, Match


def _events(game: Game) -> list:
    return [{"type": e.type, "payload": e.payload, "version": e.version}
            for e in game.events.order_by("version")]


def _name(player, fallback: str) -> str:
    return mat_name(player.display_name if player is not None else None, fallback)


def match_to_mat(match: Match) -> str:
    """The match as a Jellyfish ``.mat`` text that GNU Backgammon can import.

    Works for finished and running matches; raises :class:`NotExportable` (a
    ``ValueError``, code ``not_exportable``) when a game used something the
    format cannot express.
    """
    games = [_events(game) for game in match.games.order_by("number")]
    return write_mat(length=match.length, black_name=_name(match.black, "Black"),
                     white_name=_name(match.white, "White"), games=games, crawford=match.crawford)


def game_position_ids(game: Game) -> list:
    """GNU Backgammon's IDs after each event of ``game``, in version order.

    Each entry: ``{"version", "type", "positionId", "matchId", "gnubgId"}``, as
    gnubg shows the same moment of the imported match: the match length, the
    score (after the game once it is over), the Crawford and Jacoby flags.
    """
    return events_position_ids(_events(game), length=game.match.length)


__all__ = ["match_to_mat", "game_position_ids", "events_position_ids", "COLUMN", "NotExportable"]
