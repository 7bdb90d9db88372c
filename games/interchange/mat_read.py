"""Read a Jellyfish ``.mat`` file (what gnubg, XG and most sites export) into played games.

Two steps, both pure (no Django):

* :func:`parse_mat` reads the text into :class:`ParsedMatch`: the match length, the
  players, and per game its header scores and the cells of each column, each with
  its line number. It checks the layout only.
* :func:`import_mat` replays every cell through the rules engine with
  :class:`~games.interchange.record.GameRecorder` and returns :class:`ImportedMatch`:
  per game the list of ``{"type", "payload"}`` events exactly as the services write
  them (``game_start``, ``opening_roll``, ``roll``, ``move``, ``double``, ``take``,
  ``drop``, ``resign_offer``/``resign_accept``, ``game_end``), ready to be stored as a
  match with games and events.

Anything unreadable or illegal is refused with :class:`MatImportError`, a
``ValueError`` with a stable ``code``, the 1-based ``line`` and a readable
``message``; nothing is produced. Codes:

==================  ===========================================================
``too_large``       the text is over the size limit
``not_a_mat``       no ``N point match`` header
``bad_game``        a ``Game N`` block without its ``name : score`` line
``bad_line``        a line that is neither a numbered line nor a result
``bad_cell``        a cell that is not a roll, a cube action or a result
``bad_move``        move notation that cannot be read
``illegal_move``    a play the dice and the position do not allow
``illegal_action``  a roll, double, take, drop or resignation the rules refuse now
                    (wrong player, no cube in the Crawford game, ...)
``bad_opening``     a first roll that is a double, or no first roll at all
``missing_move``    a roll with legal plays but no play, not followed by a resignation
``score_mismatch``  a game header's score differs from the games before it
``result_mismatch`` a ``Wins N points`` that differs from how the game ended
``unfinished_game`` a game other than the last one does not end
``after_end``       moves after the end of a game or games after the end of the match
==================  ===========================================================

A game's result comes from the play itself (last checker off, a drop) and is checked
against the file's ``Wins`` line; ``Wins N points`` while the game is still on is a
resignation of ``N / cube`` (single, gammon, backgammon) by the other player. The last
game may be unfinished (a match in progress). Money sessions (``0 point match``) do
not say whether the Jacoby rule was on: by default both are tried, and the one that
scores every game as the file does is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.engine import MOVE, OPENING, MatchRules, MatchState
from games.engine.errors import EngineError, Message, gettext_noop, word
from games.engine.match import MAX_LENGTH
from games.engine.notation import parse_play
from games.engine.position import BLACK, WHITE, other

from .record import GameRecorder
from games.engine import other

__all__ = ["MatImportError", "Cell", "ParsedGame", "ParsedMatch", "ImportedMatch", "parse_mat", "import_mat"]

MAX_BYTES = 1_000_000
PLAYER_COLOR = {0: BLACK, 1: WHITE}  # left column: gnubg's player 0 = Black (as the export writes)

_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(?P<a>\S(?:.*?\S)?)\s*:\s*(?P<sa>\d+)\s+(?P<b>\S(?:.*?\S)?)\s*:\s*(?P<sb>\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_CUBE = re.compile(r"^(Doubles|Beavers|Raccoons)\s*=>\s*(\d+)$", re.IGNORECASE)
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_DICE_AT = re.compile(r"[1-6][1-6]:")


SIDE = {WHITE: Message(gettext_noop("White")), BLACK: Message(gettext_noop("Black"))}
KIND = {"single": gettext_noop("single"), "gammon": gettext_noop("gammon"), "backgammon": gettext_noop("backgammon")}


class MatImportError(ValueError):
    """A ``.mat`` file that cannot be imported: ``code``, ``line`` (1-based or None), ``message``
    (marked English with its values in ``params``, worded when read, as the engine's refusals)."""

    def __init__(self, code: str, message: str, line: int | None = None, *, params: dict | None = None):
        self.code = code
        self.line = line
        self.template, self.params = message, params or {}
        text = message % self.params if self.params else message
        super().__init__(f"line {line}: {text}" if line else text)

    @property
    def message(self) -> str:
        return word(self.template, self.params)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "line": self.line}


@dataclass
class Cell:
    """One column entry: ``kind`` roll / double / beaver / raccoon / take / drop / wins."""

    line: int
    player: int  # 0 left (Black), 1 right (White)
    kind: str
    dice: tuple = ()
    text: str = ""  # the play, for a roll
    value: int = 0  # the cube offered, or the points won


@dataclass
class ParsedGame:
    number: int
    line: int
    black_score: int
    white_score: int
    cells: list = field(default_factory=list)
    score_line: int = 0


@dataclass
class ParsedMatch:
    length: int
    black_name: str = "Black"
    white_name: str = "White"
    games: list = field(default_factory=list)
    comments: list = field(default_factory=list)


@dataclass
class ImportedMatch:
    """A replayed match: what the lead stores as a Match with its Games and GameEvents."""

    rules: MatchRules
    black_name: str
    white_name: str
    games: list  # per game: [{"type", "payload"}, ...] as the services write them
    state: MatchState  # the match after the last finished game
    comments: list = field(default_factory=list)

    @property
    def score(self) -> tuple:
        return self.state.score

    @property
    def winner(self) -> str | None:
        return self.state.winner


# -- layout --------------------------------------------------------------------------
def _split_columns(line: str) -> tuple:
    """``(left, right)`` texts of a numbered line's body (gnubg's rule, without reading
    past the end of the line): split before the second ``dd:`` when both cells are rolls,
    else at the first double space from column 15 on."""
    m = _NUMBERED.match(line)
    body_start = m.start(2)
    dice = [d.start() for d in _DICE_AT.finditer(line, body_start)]
    if len(dice) >= 2:
        cut = dice[1]
    else:
        cut = line.find("  ", max(15, body_start))
        if cut < 0:
            return line[body_start:].strip(), ""
    return line[body_start:cut].strip(), line[cut:].strip()


def _cell(text: str, player: int, number: int) -> Cell | None:
    text = " ".join(text.split())
    if not text:
        return None
    m = _ROLL.match(text)
    if m:
        play = m.group(3).strip()
        if play.lower().startswith(("???", "cannot move")):
            play = ""  # XG: a roll before a resignation / a dance
        if play.lower().startswith("illegal play"):
            raise MatImportError("bad_cell", gettext_noop("%(cell)s: illegal plays recorded in the file are not "
                                 "accepted."), number, params={"cell": repr(text)})
        return Cell(number, player, "roll", (int(m.group(1)), int(m.group(2))), play)
    m = _CUBE.match(text)
    if m:
        kind = {"doubles": "double", "beavers": "beaver", "raccoons": "raccoon"}[m.group(1).lower()]
        return Cell(number, player, kind, value=int(m.group(2)))
    low = text.lower()
    if low in ("takes", "take", "accepts"):
        return Cell(number, player, "take")
    if low in ("drops", "drop", "passes", "rejects"):
        return Cell(number, player, "drop")
    m = _WINS.match(text)
    if m:
        return Cell(number, player, "wins", value=int(m.group(1)))
    raise MatImportError("bad_cell", gettext_noop("Cannot read %(cell)s: expected a roll like '31: 8/5 6/5', "
                         "'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'."), number, params={"cell": repr(text)})


def parse_mat(text: str, *, max_bytes: int = MAX_BYTES) -> ParsedMatch:
    """The layout of a ``.mat`` file; raises :class:`MatImportError`."""
    if not isinstance(text, str):
        raise MatImportError("not_a_mat", gettext_noop("A .mat file must be text."))
    if len(text.encode("utf-8", "replace")) > max_bytes:
        raise MatImportError("too_large", gettext_noop("The file is larger than %(bytes)s bytes."),
                             params={"bytes": max_bytes})
    lines = text.lstrip("\ufeff").splitlines()
    match = None
    comments = []
    game = None
    expect_scores = False
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            comments.append(stripped[1:].strip())
            continue
        if match is None:
            m = _HEADER.match(line)
            if not m:
                raise MatImportError("not_a_mat", gettext_noop("The file must start with a line like '7 point match'."),
                                     number)
            if int(m.group(1)) > MAX_LENGTH:  # the engine's limit, refused here with its line
                raise MatImportError("bad_length", gettext_noop("A match is at most %(most)s points; the file "
                                     "declares %(length)s."), number, params={"most": MAX_LENGTH, "length": int(m.group(1))})
            match = ParsedMatch(int(m.group(1)))
            continue
        m = _GAME.match(line)
        if m:
            if expect_scores:
                raise MatImportError("bad_game", gettext_noop("A 'Game N' line must be followed by "
                                     "'name : score   name : score'."), number)
            game = ParsedGame(int(m.group(1)), number, 0, 0)
            match.games.append(game)
            expect_scores = True
            continue
        if game is None:
            raise MatImportError("bad_line", gettext_noop("Expected 'Game 1', found %(found)s."), number,
                                 params={"found": repr(stripped)})
        if expect_scores:
            m = _SCORES.match(line)
            if not m:
                raise MatImportError("bad_game", gettext_noop("Expected the players and scores, like "
                                     "'bob : 0   alice : 0'."), number)
            game.black_score, game.white_score = int(m.group("sa")), int(m.group("sb"))
            game.score_line = number
            if len(match.games) == 1:
                match.black_name, match.white_name = m.group("a"), m.group("b")
            expect_scores = False
            continue
        if _NUMBERED.match(line):
            left, right = _split_columns(line)
            for player, cell_text in ((0, left), (1, right)):
                cell = _cell(cell_text, player, number)
                if cell is not None:
                    game.cells.append(cell)
            continue
        if not _WINS.match(" ".join(stripped.split())):
            raise MatImportError("bad_line", gettext_noop("Expected a numbered line or a result, found %(found)s."),
                                 number, params={"found": repr(stripped)})
        indent = len(line) - len(line.lstrip())
        game.cells.append(_cell(stripped, 1 if indent >= 15 else 0, number))
    if match is None:
        raise MatImportError("not_a_mat", gettext_noop("The file is empty: no 'N point match' header."))
    if expect_scores:
        raise MatImportError("bad_game", gettext_noop("The last 'Game N' line has no players and scores."), game.line)
    match.comments = comments
    return match


# -- replay ----------------------------------------------------------------------------
def _engine(line: int, what: str):
    """Turn an engine refusal into a MatImportError for ``line``."""

    class _Guard:
        def __enter__(self):
            return self

        def __exit__(self, kind, exc, tb):
            if exc is not None and isinstance(exc, EngineError):
                code = "illegal_move" if what == "move" else "illegal_action"
                raise MatImportError(code, exc.template, line, params=exc.params) from None
            return False

    return _Guard()


def _play_cell(rec: GameRecorder, cell: Cell, cells: list, index: int) -> None:
    state = rec.state
    color = PLAYER_COLOR[cell.player]
    if state.is_over:
        if cell.kind != "wins":
            raise MatImportError("after_end", gettext_noop("The game is already over."), cell.line)
        if cell.value != state.result.points or color != state.result.winner:
            kind = state.result.kind
            raise MatImportError("result_mismatch", gettext_noop(
                "The file says %(side)s wins %(points)s; the game ended with %(winner)s winning %(won)s (%(kind)s)."),
                cell.line, params={"side": SIDE[color], "points": cell.value, "winner": SIDE[state.result.winner],
                                   "won": state.result.points, "kind": Message(KIND[kind]) if kind in KIND else kind})
        return
    if cell.kind == "wins":
        _resign(rec, cell, color)
        return
    if cell.kind == "roll":
        _roll_and_play(rec, cell, color, cells, index)
        return
    if state.phase == MOVE and state.actor != color and cell.kind in ("double", "beaver", "raccoon"):
        raise MatImportError("illegal_action", gettext_noop("A cube action while the dice are out."), cell.line)
    with _engine(cell.line, "cube"):
        if cell.kind == "double":
            if state.actor != color:
                raise MatImportError("illegal_action", gettext_noop("It is not this player's turn to double."), cell.line)
            if cell.value != state.cube_value * 2:
                raise MatImportError("illegal_action", gettext_noop("The cube is at %(cube)s: a double offers "
                                     "%(offer)s, not %(value)s."), cell.line,
                                     params={"cube": state.cube_value, "offer": state.cube_value * 2, "value": cell.value})
            rec.double()
        elif cell.kind == "take":
            if state.phase != "cube_offered" and state.cube_owner == color:
                return  # the beaver's explicit acceptance of a raccoon: nothing to do
            _require_actor(state, color, cell)
            rec.take()
        elif cell.kind == "drop":
            _require_actor(state, color, cell)
            rec.drop()
        elif cell.kind == "beaver":
            _require_actor(state, color, cell)
            rec.beaver()
        elif cell.kind == "raccoon":
            _require_actor(state, color, cell)
            rec.raccoon()


def _require_actor(state, color, cell) -> None:
    if state.actor != color:
        raise MatImportError("illegal_action", gettext_noop("%(side)s is the one to act here."), cell.line,
                             params={"side": SIDE[state.actor]})


def _roll_and_play(rec: GameRecorder, cell: Cell, color: str, cells: list, index: int) -> None:
    state = rec.state
    line = cell.line
    if state.phase == OPENING:
        d1, d2 = cell.dice
        if d1 == d2:
            raise MatImportError("bad_opening", gettext_noop("The first roll of a game cannot be a double (%(roll)s)."),
                                 line, params={"roll": f"{d1}{d2}"})
        high, low = max(cell.dice), min(cell.dice)
        if color == WHITE:
            rec.opening(high, low)
        else:
            rec.opening(low, high)
    else:
        if state.actor != color:
            raise MatImportError("illegal_action", gettext_noop("It is the other player's turn to roll."), line)
        with _engine(line, "roll"):
            rec.roll(cell.dice)
    state = rec.state
    plays = state.legal_plays()
    text = cell.text
    if not text:
        if len(plays) <= 1:  # a dance, or the only play: gnubg's reading too
            with _engine(line, "move"):
                rec.move(plays[0].steps if plays else [])
            return
        following = cells[index + 1] if index + 1 < len(cells) else None
        if following is not None and following.kind == "wins":
            return  # rolled, then resigned: the Wins line comes next
        raise MatImportError("missing_move", gettext_noop("%(roll)s has legal plays but none is written, and no "
                             "resignation follows."), line, params={"roll": f"{cell.dice[0]}{cell.dice[1]}"})
    text = _normalise_play(text)
    try:
        play = parse_play(state.position, state.dice, text)
    except EngineError as exc:
        code = "bad_move" if exc.code == "bad_notation" else "illegal_move"
        raise MatImportError(code, gettext_noop("%(roll)s: %(play)s: %(reason)s"), line,
                             params={"roll": f"{cell.dice[0]}{cell.dice[1]}", "play": text, "reason": exc}) from None
    rec.move(play.steps)


def _normalise_play(text: str) -> str:
    """Other programs' spellings: ``25/22`` or ``Bar/22`` for the bar, ``6/0`` or ``6/Off``
    for bearing off, commas between moves."""
    out = []
    for token in text.replace(",", " ").split():
        parts = token.split("/")
        if parts and parts[0].rstrip("*") == "25":
            parts[0] = "bar"
        last = parts[-1]
        count = ""
        if "(" in last:
            last, count = last[:last.index("(")], last[last.index("("):]
        if last.rstrip("*") == "0":
            last = "off"
        parts[-1] = last + count
        out.append("/".join(parts).lower())
    return " ".join(out)


def _resign(rec: GameRecorder, cell: Cell, winner: str) -> None:
    state = rec.state
    loser = other(winner)
    for level in (1, 2, 3):
        try:
            trial = state.offer_resignation(loser, level).accept_resignation(winner)
        except EngineError as exc:
            raise MatImportError("illegal_action", gettext_noop("A resignation is not possible here: %(reason)s"),
                                 cell.line, params={"reason": exc}) from None
        if trial.result.points == cell.value:
            rec.resign_offer(loser, level)
            rec.resign_accept()
            return
    raise MatImportError("result_mismatch", gettext_noop("'Wins %(points)s' is not a single, gammon or backgammon "
                         "at a cube of %(cube)s."), cell.line, params={"points": cell.value, "cube": state.cube_value})


def _replay(parsed: ParsedMatch, rules: MatchRules) -> ImportedMatch:
    match = MatchState.new(rules)
    games = []
    for index, game in enumerate(parsed.games):
        if match.is_over:
            raise MatImportError("after_end", gettext_noop("The match was already won before this game."), game.line)
        if (game.white_score, game.black_score) != match.score:
            raise MatImportError("score_mismatch", gettext_noop(
                "Game %(game)s starts at %(file)s (left-right); the games before it make it %(replayed)s."),
                game.score_line, params={"game": game.number, "file": f"{game.black_score}-{game.white_score}",
                                         "replayed": f"{match.black_score}-{match.white_score}"})
        rec = GameRecorder.start(match, number=index + 1)
        cells = game.cells
        if not cells or cells[0].kind != "roll":
            if cells or index < len(parsed.games) - 1:
                raise MatImportError("bad_opening", gettext_noop("Game %(game)s must start with the opening roll."),
                                     cells[0].line if cells else game.line, params={"game": game.number})
        for i, cell in enumerate(cells):
            _play_cell(rec, cell, cells, i)
        if rec.is_over:
            match = rec.finish()
        elif index < len(parsed.games) - 1:
            raise MatImportError("unfinished_game", gettext_noop("Game %(game)s does not end (no last checker off, "
                                 "drop or 'Wins' line)."), game.line, params={"game": game.number})
        games.append(rec.events)
    return ImportedMatch(rules, parsed.black_name, parsed.white_name, games, match, parsed.comments)


def _rules_for(parsed: ParsedMatch, jacoby: bool) -> MatchRules:
    kinds = {cell.kind for game in parsed.games for cell in game.cells}
    if parsed.length:
        return MatchRules(length=parsed.length)
    return MatchRules(length=0, jacoby=jacoby, beaver="beaver" in kinds or "raccoon" in kinds,
                      raccoon="raccoon" in kinds)


def import_mat(text: str, *, jacoby: bool | None = None, max_bytes: int = MAX_BYTES) -> ImportedMatch:
    """Parse and replay a ``.mat`` file; raises :class:`MatImportError` (nothing is produced).

    ``jacoby`` (money sessions only): whether gammons count single with a centred cube;
    None tries without, then with, and keeps the reading that scores every game as the
    file does.

    >>> text = ''' 3 point match
    ...
    ...  Game 1
    ...  bob : 0                        alice : 0
    ...   1)                             31: 8/5 6/5
    ...   2)  Doubles => 2                Drops
    ...       Wins 1 point
    ... '''
    >>> m = import_mat(text)
    >>> m.score, [e["type"] for e in m.games[0]]
    ((0, 1), ['game_start', 'opening_roll', 'move', 'double', 'drop', 'game_end'])
    """
    parsed = parse_mat(text, max_bytes=max_bytes)
    if parsed.length == 1 and any(c.kind in ("double", "beaver", "raccoon") for g in parsed.games for c in g.cells):
        cell = next(c for g in parsed.games for c in g.cells if c.kind in ("double", "beaver", "raccoon"))
        raise MatImportError("illegal_action", gettext_noop("A 1-point match is played without the cube."), cell.line)
    if parsed.length or jacoby is not None:
        return _replay(parsed, _rules_for(parsed, bool(jacoby)))
    try:
        return _replay(parsed, _rules_for(parsed, False))
    except MatImportError as first:
        if first.code != "result_mismatch":
            raise
        try:
            return _replay(parsed, _rules_for(parsed, True))
        except MatImportError:
            raise first from None
