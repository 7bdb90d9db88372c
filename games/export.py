"""Exports of finished (or running) matches for other backgammon software.

:func:`match_to_mat` writes a match as a Jellyfish ``.mat`` text file, the
format GNU Backgammon imports with ``import mat FILE`` (and writes with
``export match mat FILE``). :func:`game_position_ids` lists GNU Backgammon's
Position ID and Match ID after every event of a game.

The ``.mat`` layout, as GNU Backgammon 1.07 writes and reads it::

     3 point match

     Game 1
     Bob : 0                        Alice : 0
      1)                             31: 8/5 6/5
      2) 62: 24/18 13/11              Doubles => 2
      3)  Takes                      52: 13/11 13/8
      ...
                                      Wins 2 points

Conventions of this export (gnubg's importer decides a cell's player by its
column alone):

* **Columns.** The left column is **Black** (the joiner) and the right column
  is **White** (the creator). This is GNU Backgammon's player 0 / player 1,
  the same numbering ``games.engine.gnubgid`` uses for Match IDs, so the
  Match IDs gnubg shows for an imported match agree with this project's.
  The game header gives both names and their scores at the start of the game
  in that order.
* **Cells.** A turn is ``dice: play`` with the dice in roll order and the play
  in the mover's own point numbers (the ``notation`` of the move event:
  ``24/13``, ``13/9(2)``, ``bar/22*``, ``6/off``; gnubg's move parser reads
  all of these). A turn with no legal play is just ``dice:``. Cube actions
  are `` Doubles => N``, `` Takes`` and `` Drops``.
* **Lines.** Each numbered line holds a left cell (28 columns wide) then a
  right cell; when the right-column player acts first in a game, line 1 has
  an empty left column.
* **End of a game.** ``Wins N point(s)`` in the winner's column. After a drop
  or the last checker off, gnubg already knows the result and ignores it; when
  the game ended otherwise (a resignation, a forfeit) gnubg reads it as a
  resignation worth N points. An aborted game, or a last-roll tie (0 points),
  gets no ``Wins`` line.
* **Money sessions** are written as ``0 point match``, which gnubg imports as
  a money session.

Limitations of the format (refused with :class:`ValueError`, never written
wrongly): beavers and raccoons, and automatic doubles of the opening roll,
cannot be expressed in a ``.mat`` file. Not expressed but harmless: match
options (gnubg assumes the Crawford rule is on and Jacoby off), resignation
offers that were rejected, and a forfeit of the whole match (the game's
points are written; the rest of the match is simply missing).
"""

from __future__ import annotations

from .engine import BLACK, WHITE
from .models import Game, Match
from .replay import replay_steps
from .selectors import position_ids

#: Column of each colour in a .mat file: 0 = left (gnubg's player 0), 1 = right.
COLUMN = {BLACK: 0, WHITE: 1}
CELL_WIDTH = 28  # gnubg writes "%3d) %-28s" for the left cell
#: Event types a .mat file cannot express.
UNSUPPORTED = {"beaver": "a beaver", "raccoon": "a raccoon"}


def _events(game: Game) -> list:
    return [{"type": e.type, "payload": e.payload, "version": e.version}
            for e in game.events.order_by("version")]


def _name(player, fallback: str) -> str:
    """A player's name as one token (gnubg reads ``name : score`` and turns spaces into ``_``)."""
    name = player.display_name if player is not None else fallback
    name = "_".join(name.replace(":", "_").split())
    return name or fallback


def _cells(game: Game, events: list) -> list:
    """The ``(column, text)`` cells of one game, in order, then its Wins line as a cell
    with text starting ``Wins`` (if the game has a result worth points)."""
    cells = []
    cube = 1
    result = None
    for event in events:
        kind, data = event["type"], event["payload"]
        if kind in UNSUPPORTED:
            raise ValueError(
                f"Game {game.number} of match #{game.match_id} has {UNSUPPORTED[kind]}, "
                "which a .mat file cannot express."
            )
        if kind == "opening_roll" and data.get("cubeValue", 1) != 1:
            raise ValueError(
                f"Game {game.number} of match #{game.match_id} started with an automatic double, "
                "which a .mat file cannot express."
            )
        if kind == "move":
            dice = "".join(str(d) for d in data["dice"])
            text = f"{dice}: {data['notation']}".rstrip()
            cells.append((COLUMN[data["color"]], text))
        elif kind == "double":
            cube *= 2
            cells.append((COLUMN[data["color"]], f" Doubles => {cube}"))
        elif kind == "take":
            cells.append((COLUMN[data["color"]], " Takes"))
        elif kind == "drop":
            cells.append((COLUMN[data["color"]], " Drops"))
        elif kind == "game_end":
            result = data
    if result is not None and result.get("winner") and result.get("points"):
        points = result["points"]
        cells.append((COLUMN[result["winner"]], f"Wins {points} point{'s' if points != 1 else ''}"))
    return cells


def _layout(cells: list) -> list:
    """Numbered two-column lines: a left cell starts a line, a right cell fills the
    current line's right column or starts a line with an empty left column."""
    lines = []  # each [left, right] (None = empty)
    wins = None
    for column, text in cells:
        if text.startswith("Wins"):
            wins = (column, text)
            continue
        if column == 0 or not lines or lines[-1][1] is not None:
            lines.append([None, None])
        lines[-1][column] = text
    out = []
    for number, (left, right) in enumerate(lines, start=1):
        left = left or ""
        cell = left.ljust(CELL_WIDTH)
        if len(left) >= CELL_WIDTH - 1:
            cell = left + "  "  # gnubg needs a double space between the columns
        out.append(f"{number:3d}) {cell}{right or ''}".rstrip())
    if wins is not None:
        column, text = wins
        out.append((" " * 34 if column == 1 else " " * 6) + text)
    return out


def match_to_mat(match: Match) -> str:
    """The match as a Jellyfish ``.mat`` text that GNU Backgammon can import.

    Works for finished and running matches; raises :class:`ValueError` when a
    game used a cube action the format cannot express (see the module docstring).
    """
    left_name = _name(match.black, "Black")
    right_name = _name(match.white, "White")
    lines = [f" {match.length} point match", ""]
    for game in match.games.order_by("number"):
        events = _events(game)
        start = next((e["payload"] for e in events if e["type"] == "game_start"), None)
        white_score, black_score = start["score"] if start else (0, 0)
        lines.append(f" Game {game.number}")
        head = f"{left_name} : {black_score}"
        lines.append(f" {head:<31}{right_name} : {white_score}")
        lines.extend(_layout(_cells(game, events)))
        lines.append("")
    return "\n".join(lines) + "\n"


def game_position_ids(game: Game) -> list:
    """GNU Backgammon's IDs after each event of ``game``, in version order.

    Each entry: ``{"version", "type", "positionId", "matchId", "gnubgId"}``, the
    Match ID with the match length, the score at the start of the game and the
    Crawford flag, as gnubg shows it for the same moment of an imported match.
    """
    events = _events(game)
    start = next((e["payload"] for e in events if e["type"] == "game_start"), {})
    score = tuple(start.get("score", (0, 0)))
    length = start.get("matchLength", game.match.length)
    out = []
    for event, state in replay_steps(events):
        ids = position_ids(state, length=length, score=score)
        out.append({"version": event["version"], "type": event["type"], **ids})
    return out


__all__ = ["match_to_mat", "game_position_ids", "COLUMN"]
