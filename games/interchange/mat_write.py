"""Write a match as a Jellyfish ``.mat`` file that GNU Backgammon 1.07 reads back exactly.

Pure: takes the games' event lists (``{"type", "payload"}`` as stored in
``GameEvent``), no Django. ``games.selectors.export.match_to_mat`` feeds it from the database.

The layout follows gnubg's own exporter (``ExportGameJF``)::

     7 point match

     Game 1
     bob : 0                        alice : 0
      1)                             31: 8/5 6/5
      2) 62: 24/18 13/11              Doubles => 2
      3)  Drops
                                      Wins 1 point

* **Columns.** Left is **Black** (gnubg's player 0), right is **White** (player 1), the
  numbering of ``games.engine.gnubgid``. A numbered line is ``"%3d) "``, the left cell
  padded to 27 characters and a space (two when the cell is longer), then the right cell.
* **Every numbered line reaches column 34**, even when its right cell is empty. gnubg
  1.07's importer reads a line into a reused buffer and looks for the column break at
  character 15 onwards without checking the line's length: on a short line
  (``"  3)  Drops"``, ``"  4)  Takes"``, ``"  9) 21:"``) it reads what the previous,
  longer line left in the buffer, typically the opponent's ``Doubles => 2``, and goes on
  to see a double, a resignation and sometimes an extra game. gnubg's own exporter
  pads these lines, so this one does too.
* **Cells.** ``dice: play`` (dice in roll order, the move event's mover-frame
  notation), ``dice:`` alone for a dance or for a roll followed by a resignation
  when those dice had a choice of plays (with at most one legal play gnubg's importer
  would play it itself, and a forced play can bear off the last checker: such a roll,
  never played, is left out and the file resigns before it),
  `` Doubles => N``, `` Takes``, `` Drops``.
* **Results.** ``Wins N point(s)`` on its own line in the winner's column (column 7 for
  Black, 35 for White). After a drop or the last checker off gnubg computes the result
  itself; after a resignation or a forfeit it reads the points as a resignation of
  ``ceil(N / cube)`` (single, gammon, backgammon).

What the format cannot carry is refused with :class:`NotExportable` (a ``ValueError``
with ``code = "not_exportable"``), never written wrongly:

* a game won by a **double backgammon** (4 x cube: gnubg reads it as a resigned
  backgammon worth 3 x cube, or scores the board as a backgammon);
* **automatic doubles** of the opening roll (the file has no cube before the first move);
* **beavers and raccoons** (gnubg reads `` Beavers => 4`` but keeps the wrong cube for a
  later resignation: 6 points instead of 8);
* the **last-roll rule** once it came into play (gnubg ends the game when the first
  side bears off its last checker);
* a cube action in the game gnubg takes for the Crawford game when the match was played
  **without the Crawford rule** (gnubg assumes the rule).

Not expressed but harmless: the cube limit, rejected resignation offers, the Jacoby rule
of a money session (gnubg applies its own ``set jacoby`` setting when it scores a game
borne off: import with the same setting).

**A match awarded by forfeit** (leaving, time, abandonment, suspension): the format has no
forfeit. The games played are written as played; the game in progress, which scored
nothing, is written up to the forfeit with no ``Wins`` line (gnubg shows it unfinished,
at the real score), and a comment line at the top says who was awarded the match and
why. A money game forfeited is lost at its stakes and written as a resignation of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import BLACK, WHITE, GameRules, GameState, Position
from games.engine.errors import Message, gettext_noop, word

__all__ = ["NotExportable", "COLUMN", "mat_name", "write_mat", "game_lines"]

#: Column of each colour in a .mat file: 0 = left (gnubg's player 0), 1 = right.
COLUMN = {BLACK: 0, WHITE: 1}
LEFT_WIDTH = 27  # gnubg: "%3d) %-27s " -- the right cell starts at index 33
RIGHT_WINS = " " * 34  # gnubg puts the right column's Wins at index 34
LEFT_WINS = " " * 6


class NotExportable(ValueError):
    """The match uses something a .mat file cannot express (``code = "not_exportable"``)."""

    code = "not_exportable"

    def __init__(self, message: str, *, params: dict | None = None):
        self.template, self.params = message, params or {}
        super().__init__(message % self.params if self.params else message)

    @property
    def message(self) -> str:
        """Worded when read, in the active language (as the engine's refusals)."""
        return word(self.template, self.params)

    def __str__(self) -> str:
        return self.message


def mat_name(name: str | None, fallback: str) -> str:
    """A player's name as one token (gnubg reads ``name : score``)."""
    name = "_".join((name or "").replace(":", "_").split())
    return name or fallback


def _points_text(points: int) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}"


@dataclass
class _Record:
    """One gnubg move record: ``kind`` move/setdice/double/take/drop/resign/wins."""

    kind: str
    player: int  # 0 left (Black), 1 right (White)
    text: str = ""
    points: int = 0
    player_won: int = 0  # resign / wins: the column the Wins line goes in


def _records(events: list, number: int) -> list:
    """gnubg's move records of one game, from its events (validating what .mat can carry)."""
    records = []
    state = None
    pending_roll = None  # (player, dice) rolled but not yet played
    offer = None
    for event in events:
        kind = event.get("type", event.get("t"))
        data = event.get("payload", event.get("d")) or {}
        if kind == "game_start":
            state = GameState.new(GameRules.from_dict(data["rules"]), Position.from_dict(data["position"]))
            continue
        if kind == "opening_roll":
            if data.get("cubeValue", 1) != 1:
                raise NotExportable(gettext_noop("Game %(game)s started with an automatic double, which a .mat "
                                                 "file cannot express."), params={"game": number})
            if state is not None:
                state = state.opening_roll(data["white"], data["black"])
                if state.phase == "move":
                    pending_roll = (COLUMN[state.position.turn], tuple(state.dice))
            continue
        color = data.get("color")
        player = COLUMN.get(color, 0)
        if kind == "roll":
            pending_roll = (player, tuple(data["dice"]))
            if state is not None:
                state = state.roll(color, tuple(data["dice"]))
            continue
        if kind == "move":
            dice = "".join(str(d) for d in data["dice"])
            records.append(_Record("move", player, f"{dice}: {data['notation']}".rstrip()))
            pending_roll = None
            if state is not None:
                state = state.move(color, data["moves"])
                if state.last_roll_pending is not None:
                    raise NotExportable(gettext_noop(
                        "Game %(game)s went on under the last-roll rule after a side bore off its last "
                        "checker, which a .mat file cannot express."), params={"game": number})
            continue
        if kind == "double":
            records.append(_Record("double", player, f" Doubles => {data['cubeValue']}"))
        elif kind == "take":
            records.append(_Record("take", player, " Takes"))
        elif kind == "drop":
            records.append(_Record("drop", player, " Drops"))
        elif kind in ("beaver", "raccoon"):
            raise NotExportable(gettext_noop(
                "Game %(game)s has a %(kind)s: gnubg 1.07 reads a .mat beaver with the wrong cube "
                "(a later resignation scores 6 points instead of 8), so it is not written."),
                params={"game": number, "kind": Message(gettext_noop("beaver") if kind == "beaver"
                                                        else gettext_noop("raccoon"))})
        elif kind == "resign_offer":
            offer = player
        elif kind == "resign_reject":
            offer = None
        elif kind in ("resign_accept", "resign", "forfeit"):
            resigner = offer if kind == "resign_accept" else player
            if pending_roll is not None and _roll_is_written(state):
                roller, dice = pending_roll
                records.append(_Record("setdice", roller, f"{dice[0]}{dice[1]}:"))
            pending_roll = None
            records.append(_Record("resign", resigner))
        elif kind == "game_end":
            _check_result(data, number)
            points = data.get("points") or 0
            winner = data.get("winner")
            if winner and points:
                reason = data.get("reason")
                if reason in ("resign", "forfeit") and records and records[-1].kind == "resign":
                    records[-1].points = points
                else:
                    records.append(_Record("wins", COLUMN[winner], points=points))
            elif records and records[-1].kind == "resign":
                records.pop()  # nothing was scored (an abort or a tie): no Wins line
        if kind in ("double", "take", "drop") and state is not None:
            state = getattr(state, kind)(color)
    return records


def _roll_is_written(state) -> bool:
    """Whether a roll followed by a resignation, never played, goes in the file.

    gnubg's importer plays a lone ``dice:`` cell itself when the dice have at most one
    legal play (the dance, or the forced play, which can bear off the last checker and
    score another game); only with a choice of plays does it keep the roll unplayed.
    So the roll is written only then, and otherwise the file resigns before it.
    """
    if state is None or not state.dice:
        return True
    return len(state.legal_plays()) > 1


def _check_result(data: dict, number: int) -> None:
    if data.get("kind") == "double_backgammon":
        raise NotExportable(
            gettext_noop("Game %(game)s was won by a double backgammon (%(points)s points): a .mat file has "
                         "no way to write it (gnubg would read a backgammon worth 3 x the cube)."),
            params={"game": number, "points": data.get("points")})
    if data.get("reason") == "last_roll":
        raise NotExportable(gettext_noop("Game %(game)s was decided by the last-roll rule, which a .mat file "
                                         "cannot express."), params={"game": number})


def _numbered(number: int, left: str, right: str) -> str:
    cell = left.ljust(LEFT_WIDTH) + " " if len(left) < LEFT_WIDTH else left + "  "
    return f"{number:3d}) {cell}{right}"


def game_lines(records: list) -> list:
    """The numbered lines and Wins line of one game's records (see the module docstring)."""
    lines = []
    row = None  # [left, right] of the line being filled
    number = 0

    def flush():
        nonlocal row
        if row is not None:
            lines.append(_numbered(number, row[0] or "", row[1] or ""))
            row = None

    for record in records:
        if record.kind in ("resign", "wins"):
            flush()
            if record.points:
                lines.append((RIGHT_WINS if record.player_won == 1 else LEFT_WINS) + _points_text(record.points))
            continue
        if row is None or record.player == 0 or row[1] is not None:
            flush()
            number += 1
            row = [None, None]
        row[record.player] = record.text
        if record.kind == "setdice":
            flush()
    flush()
    return lines


def _winner_column(records: list) -> None:
    """Resolve each resign/wins record's winning column (a resign names the loser)."""
    for record in records:
        if record.kind == "resign":
            record.player_won = 1 - record.player
        elif record.kind == "wins":
            record.player_won = record.player


def _crawford_checks(games: list, length: int, crawford: bool) -> None:
    """Without the Crawford rule, no cube action may fall in the game gnubg calls Crawford."""
    if crawford or not length:
        return
    post = False
    for number, events in enumerate(games, start=1):
        start = next((e.get("payload", e.get("d")) for e in events if e.get("type", e.get("t")) == "game_start"), None)
        if start is None:
            continue
        white, black = start["score"]
        is_crawford = not post and ((white == length - 1) != (black == length - 1))
        if is_crawford:
            post = True
            kinds = {e.get("type", e.get("t")) for e in events}
            if kinds & {"double", "beaver", "raccoon"}:
                raise NotExportable(gettext_noop(
                    "Game %(game)s was played with the cube at a score where gnubg applies the Crawford "
                    "rule; this match was played without it, which a .mat file cannot express."),
                    params={"game": number})


def _forfeit_end(games: list, length: int) -> dict | None:
    """The ``game_end`` payload of a match to N points awarded by forfeit, else None."""
    if not length or not games:
        return None
    end = next((e.get("payload", e.get("d")) for e in reversed(games[-1]) if e.get("type", e.get("t")) == "game_end"), None)
    if end and end.get("reason") == "forfeit" and not end.get("points") and end.get("matchWinner"):
        return end
    return None


def _forfeit_comment(games: list, length: int, names: dict) -> str:
    """``; <winner> wins the match by forfeit (<reason>) at <score>, ...``: the format has no
    forfeit, so the awarded match is said in a comment (gnubg keeps it as the match's)."""
    end = _forfeit_end(games, length)
    winner = names[COLUMN[end["matchWinner"]]]
    white, black = end.get("score", (0, 0))
    reason = end.get("matchReason") or "forfeit"
    why = "" if reason == "forfeit" else f" ({reason})"
    return (f"; {winner} wins the match by forfeit{why} at {black}-{white} ({names[0]}-{names[1]}); "
            "the last game was not finished and scored no points.")


def write_mat(*, length: int, black_name: str, white_name: str, games: list, crawford: bool = True) -> str:
    """The whole ``.mat`` text. ``games``: each game's event list, in order.

    Raises :class:`NotExportable` when a game used something the format cannot express.
    """
    left = mat_name(black_name, "Black")
    right = mat_name(white_name, "White")
    _crawford_checks(games, length, crawford)
    lines = [_forfeit_comment(games, length, {0: left, 1: right}), ""] if _forfeit_end(games, length) else []
    lines += [f" {length} point match", ""]
    for number, events in enumerate(games, start=1):
        start = next((e.get("payload", e.get("d")) for e in events if e.get("type", e.get("t")) == "game_start"), {})
        white_score, black_score = start.get("score", (0, 0))
        number = start.get("number", number)
        lines.append(f" Game {number}")
        head = f"{left} : {black_score}"
        lines.append(f" {head:<31}{right} : {white_score}")
        records = _records(events, number)
        _winner_column(records)
        lines.extend(game_lines(records))
        lines.append("")
    return "\n".join(lines) + "\n"

