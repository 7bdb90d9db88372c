"""GNU Backgammon Position ID and Match ID.

GNU Backgammon (gnubg) names a position with a 14-character **Position ID**
and the match state around it with a 12-character **Match ID**; the two are
written together as ``"posid:matchid"`` (gnubg's ``show gnubgid``).

Position ID
    An 80-bit key, base64-encoded without the trailing ``==``. The key has two
    halves: first the checkers of the player **not** on roll, then those of the
    player on roll. Each half walks that player's own points 1..24 (their
    1-point first, i.e. their home board first) and then their bar, writing one
    ``1`` bit per checker followed by a ``0`` bit. The bit stream is padded with
    zeros to 80 bits and packed into 10 bytes, least significant bit first.
    Borne-off checkers are implied (15 minus the checkers on the board and bar).
    In the absolute frame of RULES.md, White's own point ``p`` is absolute
    ``p``; Black's own point ``p`` is absolute ``25 - p``.

Match ID
    A 66-bit key plus gnubg 1.07's Jacoby bit in 9 bytes (same little-endian
    bit packing, base64 without padding, 12 characters). The fields, from the
    lowest bit up:

    ====  ============  =====================================================
    bits  field         values
    ====  ============  =====================================================
    4     cube          log2 of the cube value
    2     cube owner    0 = player 0, 1 = player 1, 3 = centred
    1     on roll       the player whose dice these are (gnubg's ``fMove``)
    1     crawford      1 in the Crawford game
    3     game state    0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
    1     turn          the player who must act now (gnubg's ``fTurn``)
    1     double        1 when a double is being offered
    2     resign        0 none, 1 single, 2 gammon, 3 backgammon
    3+3   dice          the two dice, 0 when not rolled
    15    match length  0 = money game
    15+15 score         player 0's score, then player 1's
    1     no Jacoby     gnubg 1.07's extended Match ID: 1 unless the Jacoby
                        rule is in force (set in match play and in money
                        sessions without Jacoby; gnubg's ``!fJacoby``)
    ====  ============  =====================================================

    **Players:** verified on the 1000 ids of ``shared/data/gnubg_positions.jsonl``,
    gnubg's player 0 is **Black** and player 1 is **White** in this project's
    frame. The score is passed and returned here as ``(white, black)``.
    The dice are stored in the order given; the reference data's Match IDs
    always hold the larger die first (its ``dice`` field is in roll order).

The position key is oriented by the player *on roll* (``fMove``), which is
also the Match ID's "on roll" bit; the "turn" bit differs from it only while a
double or a resignation is waiting for the opponent's answer, and after a drop
(see :func:`state_ids`, which gives a whole game state's ids as gnubg shows them).

>>> from games.engine.position import Position
>>> position_id(Position.initial())
'4HPwATDgc/ABMA'
>>> position_from_id("4HPwATDgc/ABMA", "black") == Position.initial("black")
True
>>> match_id(on_roll="white", dice=(3, 1))
'cIkFAAAAAAAA'
>>> m = match_from_id("cIkFAAAAAAAA")
>>> m["on_roll"], m["dice"], m["cube_value"], m["cube_owner"], m["match_length"]
('white', (3, 1), 1, None, 0)
>>> gnubg_id(Position.initial("black"), dice=(6, 5))
'4HPwATDgc/ABMA:MAEXAAAAAAAA'
>>> pos, state = parse_gnubg_id("4HPwATDgc/ABMA:MAEXAAAAAAAA")
>>> pos == Position.initial("black"), state["dice"]
(True, (6, 5))

Only the Python standard library is used.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from .errors import IdError
from .position import BLACK, CHECKERS, COLORS, WHITE, Position, other
from games.engine.errors import gettext_noop

__all__ = [
    "state_ids",
    "position_id",
    "position_from_id",
    "match_id",
    "match_from_id",
    "gnubg_id",
    "parse_gnubg_id",
    "PLAYER_OF_COLOR",
    "COLOR_OF_PLAYER",
    "GAME_STATES",
]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {c: i for i, c in enumerate(_ALPHABET)}

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_BITS = 80
_MATCH_BITS = 66
_JACOBY_BIT = 66  # gnubg 1.07 (USE_EXTENDEDMATCHID): the bit after the 66 documented ones

#: gnubg's player numbers in the Match ID (verified against the reference data).
PLAYER_OF_COLOR = {BLACK: 0, WHITE: 1}
COLOR_OF_PLAYER = {0: BLACK, 1: WHITE}
_CENTRED = 3

#: gnubg's game states (``GAME_NONE`` .. ``GAME_DROP``).
GAME_STATES = {0: "none", 1: "playing", 2: "over", 3: "resigned", 4: "dropped"}

# (name, width) of the Match ID fields, lowest bit first.
_MATCH_FIELDS = (
    ("cube", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resign_offered", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
)


# -- bit and base64 helpers ---------------------------------------------------
def _encode_value(value: int, nbytes: int, nchars: int) -> str:
    """``value``'s bits (bit *i* of the stream is bit *i* of ``value``: LSB first per byte, the
    bytes in order) as ``nbytes`` bytes, base64'd (gnubg's alphabet is the standard one),
    the first ``nchars`` characters kept (no ``=`` padding)."""
    return base64.b64encode(value.to_bytes(nbytes, "little")).decode("ascii")[:nchars]


def _encode_bits(bits: list, nbytes: int, nchars: int) -> str:
    """Pack ``bits`` (LSB first per byte) into ``nbytes`` bytes, base64 them
    and keep the first ``nchars`` characters (dropping the ``=`` padding)."""
    return _encode_value(sum(1 << i for i, bit in enumerate(bits) if bit), nbytes, nchars)


def _decode_bits(text: str, nchars: int, nbits: int, code: str, what: str, strict: bool = True) -> list:
    """The inverse of :func:`_encode_bits`: validate ``text`` and return its
    first ``nbits`` bits (LSB first per byte). Bits past ``nbits`` must be 0."""
    if not isinstance(text, str):
        raise IdError(code, gettext_noop("A %(what)s must be a string of %(nchars)s characters."), params={"what": what, "nchars": nchars})
    if len(text) != nchars:
        raise IdError(code, gettext_noop("A %(what)s has exactly %(nchars)s characters; got %(count)s."), params={"what": what, "nchars": nchars, "count": len(text)})
    bad = sorted({c for c in text if c not in _VALUE})
    if bad:
        shown = " ".join(repr(c) for c in bad)
        raise IdError(code, gettext_noop("A %(what)s uses only A-Z, a-z, 0-9, '+' and '/'; found %(shown)s."), params={"what": what, "shown": shown})
    stream = 0
    for c in text:
        stream = (stream << 6) | _VALUE[c]
    total = 6 * nchars
    nbytes = total // 8
    # Base64 is big-endian in its bytes; drop the partial trailing bits.
    data = (stream >> (total - 8 * nbytes)).to_bytes(nbytes, "big")
    if stream & ((1 << (total - 8 * nbytes)) - 1):
        raise IdError(code, gettext_noop("This %(what)s is not canonical: its last character has stray bits."), params={"what": what})
    bits = [(data[i >> 3] >> (i & 7)) & 1 for i in range(8 * nbytes)]
    if strict and any(bits[nbits:]):
        raise IdError(code, gettext_noop("This %(what)s sets bits beyond the %(nbits)s that gnubg uses."), params={"what": what, "nbits": nbits})
    return bits[:nbits]


def _check_color(value, name: str, code: str, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if value not in COLORS:
        allowed = "'white', 'black' or None" if allow_none else "'white' or 'black'"
        raise IdError(code, gettext_noop("%(name)s must be %(allowed)s; got %(value)s."), params={"name": name, "allowed": allowed, "value": repr(value)})


# -- Position ID --------------------------------------------------------------
@lru_cache(maxsize=4096)  # a move's events share a position (a move, then the roll after it)
def position_id(pos: Position) -> str:
    """GNU Backgammon's 14-character Position ID of ``pos``, seen by
    ``pos.turn`` (the side on roll).

    >>> position_id(Position.initial("black"))
    '4HPwATDgc/ABMA'
    """
    pos.validate()
    mover = pos.turn
    opponent = other(mover)
    value = shift = 0  # the bit stream as one integer: n checkers are n ones, then a zero
    for color in (opponent, mover):
        own = pos.mover_points(color)  # index 1..24 own points, 25 the bar
        for n in own[1:26]:
            if n < 0:
                raise IdError("bad_position_id", gettext_noop("A position cannot hold a negative number of checkers."))
            value |= ((1 << n) - 1) << shift
            shift += n + 1
    return _encode_value(value, 10, POSITION_ID_LENGTH)


def position_from_id(pid: str, turn: str) -> Position:
    """Decode a Position ID; ``turn`` is the side on roll (the key's point of
    view, which the ID itself does not record).

    Raises :class:`IdError` with code ``"bad_position_id"`` on a malformed ID.

    >>> position_from_id("4HPwATDgc/ABMA", "white") == Position.initial("white")
    True
    """
    code = "bad_position_id"
    _check_color(turn, "The side on roll", code)
    bits = _decode_bits(pid, POSITION_ID_LENGTH, _POSITION_BITS, code, "Position ID")
    halves = [[0] * 26, [0] * 26]  # [opponent, on roll]; index 1..24 points, 25 bar
    half, slot, i = 0, 1, 0
    while half < 2:
        if i >= _POSITION_BITS:
            raise IdError(code, gettext_noop("This Position ID ends before both sides' checkers are listed."))
        if bits[i]:
            halves[half][slot] += 1
        else:
            slot += 1
            if slot == 26:
                half, slot = half + 1, 1
        i += 1
    # Whatever follows the 50th separator is already known to be zero-padding
    # only if every remaining bit is 0.
    if any(bits[i:]):
        raise IdError(code, gettext_noop("This Position ID has more checkers than its two halves can hold."))
    mover = turn
    opponent = other(mover)
    board = [0] * 25
    bars = {}
    offs = {}
    for color, own in ((opponent, halves[0]), (mover, halves[1])):
        total = sum(own[1:26])
        if total > CHECKERS:
            name = "White" if color == WHITE else "Black"
            raise IdError(code, gettext_noop("This Position ID gives %(name)s %(total)s checkers; a side has at most 15."), params={"name": name, "total": total})
        bars[color] = own[25]
        offs[color] = CHECKERS - total
        for p in range(1, 25):
            n = own[p]
            if not n:
                continue
            absolute = p if color == WHITE else 25 - p
            if board[absolute]:
                raise IdError(code, gettext_noop("This Position ID puts checkers of both sides on point %(absolute)s."), params={"absolute": absolute})
            board[absolute] = n if color == WHITE else -n
    return Position(tuple(board), bars[WHITE], bars[BLACK], offs[WHITE], offs[BLACK], turn)


# -- Match ID -----------------------------------------------------------------
def match_id(
    *,
    cube_value: int = 1,
    cube_owner: str | None = None,
    on_roll: str,
    crawford: bool = False,
    game_state: int = 1,
    turn: str | None = None,
    double_offered: bool = False,
    resign_offered: int = 0,
    dice: tuple = (0, 0),
    match_length: int = 0,
    score: tuple = (0, 0),
    jacoby: bool = True,
) -> str:
    """GNU Backgammon's 12-character Match ID.

    Colours (``"white"``/``"black"``) name the players; ``cube_owner=None``
    is a centred cube; ``turn=None`` means the side on roll; ``score`` is
    ``(white score, black score)``; ``match_length=0`` is a money game.
    ``jacoby`` is gnubg 1.07's extra bit: whether the Jacoby rule is in force
    (gnubg's default for money sessions, hence the default here; gnubg writes
    False for every match to N points, see :func:`state_ids`).
    Raises :class:`IdError` (code ``"bad_match_id"``) on values that do not fit.

    >>> match_id(on_roll="black", dice=(6, 5))
    'MAEXAAAAAAAA'
    """
    code = "bad_match_id"
    _check_color(on_roll, "on_roll", code)
    _check_color(cube_owner, "cube_owner", code, allow_none=True)
    _check_color(turn, "turn", code, allow_none=True)
    if turn is None:
        turn = on_roll
    if type(cube_value) is not int or cube_value < 1 or cube_value & (cube_value - 1) or cube_value > 1 << 15:
        raise IdError(code, gettext_noop("The cube value must be a power of two from 1 to 32768; got %(cube_value)s."), params={"cube_value": repr(cube_value)})
    if game_state not in GAME_STATES:
        raise IdError(code, gettext_noop("The game state must be 0..4; got %(game_state)s."), params={"game_state": repr(game_state)})
    if resign_offered not in (0, 1, 2, 3):
        raise IdError(code, gettext_noop("The resignation offered must be 0..3; got %(resign_offered)s."), params={"resign_offered": repr(resign_offered)})
    try:
        die1, die2 = dice
    except (TypeError, ValueError):
        raise IdError(code, gettext_noop("dice must be a pair; got %(dice)s."), params={"dice": repr(dice)}) from None
    for die in (die1, die2):
        if type(die) is not int or not 0 <= die <= 6:
            raise IdError(code, gettext_noop("Each die must be 0 (not rolled) to 6; got %(dice)s."), params={"dice": repr(dice)})
    try:
        white_score, black_score = score
    except (TypeError, ValueError):
        raise IdError(code, gettext_noop("score must be a pair (white, black); got %(score)s."), params={"score": repr(score)}) from None
    limit = (1 << 15) - 1
    for name, value in (("match_length", match_length), ("white score", white_score), ("black score", black_score)):
        if type(value) is not int or not 0 <= value <= limit:
            raise IdError(code, gettext_noop("The %(name)s must be an integer from 0 to %(limit)s; got %(value)s."), params={"name": name, "limit": limit, "value": repr(value)})
    values = {
        "cube": cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if cube_owner is None else PLAYER_OF_COLOR[cube_owner],
        "on_roll": PLAYER_OF_COLOR[on_roll],
        "crawford": 1 if crawford else 0,
        "game_state": game_state,
        "turn": PLAYER_OF_COLOR[turn],
        "double_offered": 1 if double_offered else 0,
        "resign_offered": resign_offered,
        "die1": die1,
        "die2": die2,
        "match_length": match_length,
        "score0": black_score if PLAYER_OF_COLOR[BLACK] == 0 else white_score,
        "score1": white_score if PLAYER_OF_COLOR[WHITE] == 1 else black_score,
    }
    bits = []
    for name, width in _MATCH_FIELDS:
        value = values[name]
        bits.extend((value >> k) & 1 for k in range(width))
    bits.append(0 if jacoby else 1)  # bit 66: gnubg's !fJacoby
    return _encode_bits(bits, 9, MATCH_ID_LENGTH)


def match_from_id(mid: str, *, extended: bool = False) -> dict:
    """Decode a Match ID into the keyword arguments of :func:`match_id`.

    With ``extended=True`` the result also has ``"jacoby"`` (gnubg 1.07's bit
    66, see the module docstring); without it that bit is ignored, like the
    bits past it. Raises :class:`IdError` with code ``"bad_match_id"`` on a
    malformed ID.

    >>> match_from_id("cAkAAAAAAAAA")["dice"]
    (0, 0)
    >>> match_from_id("cAkAAAAAAAAE", extended=True)["jacoby"]
    False
    """
    code = "bad_match_id"
    bits = _decode_bits(mid, MATCH_ID_LENGTH, _MATCH_BITS + 1, code, "Match ID", strict=False)
    jacoby = not bits[_JACOBY_BIT]
    fields = {}
    i = 0
    for name, width in _MATCH_FIELDS:
        fields[name] = sum(bits[i + k] << k for k in range(width))
        i += width
    # The 4-bit field caps the cube's log2 at 15 by construction.
    if fields["cube_owner"] == 2:
        raise IdError(code, gettext_noop("This Match ID has an invalid cube owner (2): use 0, 1 or 3 (centred)."))
    if fields["game_state"] not in GAME_STATES:
        raise IdError(code, gettext_noop("This Match ID has an unknown game state %(fields)s."), params={"fields": fields['game_state']})
    for die in ("die1", "die2"):
        if fields[die] > 6:
            raise IdError(code, gettext_noop("This Match ID has a die of %(fields)s; dice run from 0 to 6."), params={"fields": fields[die]})
    scores = {COLOR_OF_PLAYER[0]: fields["score0"], COLOR_OF_PLAYER[1]: fields["score1"]}
    owner = fields["cube_owner"]
    out = {
        "cube_value": 1 << fields["cube"],
        "cube_owner": None if owner == _CENTRED else COLOR_OF_PLAYER[owner],
        "on_roll": COLOR_OF_PLAYER[fields["on_roll"]],
        "crawford": bool(fields["crawford"]),
        "game_state": fields["game_state"],
        "turn": COLOR_OF_PLAYER[fields["turn"]],
        "double_offered": bool(fields["double_offered"]),
        "resign_offered": fields["resign_offered"],
        "dice": (fields["die1"], fields["die2"]),
        "match_length": fields["match_length"],
        "score": (scores[WHITE], scores[BLACK]),
    }
    if extended:
        out["jacoby"] = jacoby
    return out


# -- both together ------------------------------------------------------------
def gnubg_id(pos: Position, **match_kwargs) -> str:
    """``"posid:matchid"`` as gnubg prints it. ``on_roll`` defaults to
    ``pos.turn`` and must agree with it (the Position ID is seen by the side
    on roll); the other keywords are those of :func:`match_id`.

    >>> gnubg_id(Position.initial("white"), dice=(3, 1))
    '4HPwATDgc/ABMA:cIkFAAAAAAAA'
    """
    on_roll = match_kwargs.setdefault("on_roll", pos.turn)
    if on_roll != pos.turn:
        raise IdError(
            "bad_match_id",
            gettext_noop("on_roll (%(on_roll)s) must be the position's side on roll (%(turn)s)."), params={"on_roll": repr(on_roll), "turn": repr(pos.turn)},
        )
    return f"{position_id(pos)}:{match_id(**match_kwargs)}"


def parse_gnubg_id(s: str) -> tuple:
    """Split and decode ``"posid:matchid"``; returns ``(Position, match dict)``.
    The position is oriented by the Match ID's side on roll.

    Raises :class:`IdError`: ``"bad_gnubg_id"`` when the text is not two IDs
    joined by ``:``, else the code of the part that is malformed.
    """
    if not isinstance(s, str) or s.strip().count(":") != 1:
        raise IdError("bad_gnubg_id", gettext_noop("A GNU Backgammon ID is 'PositionID:MatchID' (14 + 12 characters)."))
    pid, mid = s.strip().split(":")
    state = match_from_id(mid)
    return position_from_id(pid, state["on_roll"]), state


# -- a game state as gnubg shows it -------------------------------------------------
#: gnubg's game state of a finished game, by the result's reason.
_OVER_STATE = {"resign": 3, "forfeit": 3, "drop": 4}


def _resigned_level(points: int, cube: int) -> int:
    """The resignation gnubg reads from ``Wins N points`` (its .mat importer's rule)."""
    if points <= cube:
        return 1
    if points <= 2 * cube:
        return 2
    return 3


def state_ids(state, *, match_length: int = 0, score: tuple = (0, 0), rolled: tuple | None = None) -> dict:
    """GNU Backgammon's Position ID, Match ID and ``posid:matchid`` for a
    :class:`~games.engine.game.GameState` of a match, as gnubg 1.07 shows the
    same moment of the match after importing its ``.mat`` export.

    ``score`` is ``(white, black)`` at the **start** of the game; ``rolled`` the
    dice of a roll that was not played when a finished game was resigned or
    forfeited (gnubg keeps them; the engine drops them with the result).

    Verified against gnubg itself (``tests/test_gnubg_interchange.py``):

    * running game: the side on roll, the side to act (``turn``), the dice
      (larger first), a pending double or resignation; the Jacoby bit is set
      unless the Jacoby rule is in force (a money session with Jacoby on);
    * finished game: the **score after the game**; a game borne off is state 2
      with the loser on roll; a drop is state 4 with the doubler on roll and
      the dropper to act; a resignation (or a forfeit, which gnubg reads as
      one) is state 3 with the level gnubg reads from the points (1 up to the
      cube value, 2 up to twice the cube, else 3), the side on roll unchanged
      and its unplayed dice kept -- unless those dice had at most one legal
      play: the export leaves such a roll out (gnubg's importer would play it
      itself), so gnubg shows the resignation before the roll, without dice.
    """
    from .moves import legal_plays  # noqa: PLC0415 - moves imports position only; kept local
    pos = state.position
    rules = state.rules
    white, black = score
    on_roll = pos.turn
    turn = state.actor or on_roll
    resign = state.resign_offer[1] if state.resign_offer and state.phase == "resign_offered" else 0
    dice = tuple(sorted(state.dice, reverse=True)) if state.dice else (0, 0)
    game_state = 1
    if state.phase == "over":
        result = state.result
        reason = result.reason if result else ""
        game_state = _OVER_STATE.get(reason, 2)
        if result is not None and result.winner == WHITE:
            white += result.points
        elif result is not None and result.winner == BLACK:
            black += result.points
        turn = on_roll
        resign = 0
        if reason == "drop":
            turn = other(on_roll)
        elif game_state == 3:
            resign = _resigned_level(result.points, result.cube_value) if result.points else 0
            if rolled and len(legal_plays(pos, tuple(rolled))) > 1:
                dice = tuple(sorted(rolled, reverse=True))
    mid = match_id(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        on_roll=on_roll,
        crawford=rules.crawford_game,
        game_state=game_state,
        turn=turn,
        double_offered=state.phase == "cube_offered",
        resign_offered=resign,
        dice=dice,
        match_length=match_length,
        score=(white, black),
        jacoby=bool(rules.jacoby) and not match_length,
    )
    pid = position_id(pos)
    return {"positionId": pid, "matchId": mid, "gnubgId": f"{pid}:{mid}"}
