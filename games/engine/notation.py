"""Standard move notation, from the mover's own point numbers (24 down to 1).

For White the mover's point is the absolute point; for Black it is ``25 - p``.
A checker that moves on is written as one chain (``24/13``), with the points
where it hits marked ``*`` (``24/18*/13``); identical chains are counted
(``13/9(2)``); ``bar`` and ``off`` name the bar and bearing off.

>>> from .position import Position
>>> from .moves import Step, check_play
>>> start = Position.initial()
>>> format_play(start, [Step(24, 18), Step(18, 13)])
'24/13'
>>> format_play(start, [Step(13, 9), Step(13, 9), Step(6, 2), Step(6, 2)])
'13/9(2) 6/2(2)'
>>> [s.to_dict() for s in parse_play(start, (6, 5), "24/13").steps]
[{'from': 24, 'to': 18}, {'from': 18, 'to': 13}]
"""

from __future__ import annotations

import re

from .errors import IllegalPlay, NotationError
from .moves import BAR, OFF, Play, Step, legal_plays
from .position import WHITE, Position
from games.engine.errors import gettext_noop

_TOKEN = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<count>[1-4])\))?$")


def _mover(color: str, p) -> int:
    if p == BAR:
        return 25
    if p == OFF:
        return 0
    return p if color == WHITE else 25 - p


def _name(p: int) -> str:
    return "bar" if p == 25 else "off" if p <= 0 else str(p)


def format_play(position: Position, steps) -> str:
    """Notation of ``steps`` (absolute-frame steps, wire dicts or a :class:`Play`)
    played by the side on roll in ``position``. The empty play is ``""``."""
    if isinstance(steps, Play):
        steps = steps.steps
    color = position.turn
    board = position.board
    # opponent blots, in the mover's frame
    if color == WHITE:
        blots = {p for p in range(1, 25) if board[p] == -1}
    else:
        blots = {25 - p for p in range(1, 25) if board[p] == 1}
    chains = []  # each: [points...], hits set of indexes
    for step in steps:
        if isinstance(step, dict):
            step = Step.from_dict(step)
        src, dst = _mover(color, step.src), _mover(color, step.dst)
        hit = dst > 0 and dst in blots
        if hit:
            blots.discard(dst)
        for chain in chains:
            if chain[0][-1] == src and src > 0:
                chain[0].append(dst)
                chain[1].append(hit)
                break
        else:
            chains.append(([src, dst], [False, hit]))
    texts = []
    for points, hits in chains:
        shown = [_name(points[0])]
        for i in range(1, len(points)):
            if hits[i] or i == len(points) - 1:
                shown.append(_name(points[i]) + ("*" if hits[i] else ""))
        texts.append((points[0], points[-1], "/".join(shown)))
    texts.sort(key=lambda t: (-t[0], -t[1]))
    out = []
    i = 0
    while i < len(texts):
        j = i
        while j + 1 < len(texts) and texts[j + 1][2] == texts[i][2]:
            j += 1
        count = j - i + 1
        out.append(texts[i][2] + (f"({count})" if count > 1 else ""))
        i = j + 1
    return " ".join(out)


def parse_chains(text: str) -> list:
    """Split notation into chains of mover-frame points.

    Returns ``[(points, hits), ...]`` with ``points`` as ints (25 = bar,
    0 = off), each chain repeated by its ``(n)`` count. Raises
    :class:`NotationError` on anything it cannot read.
    """
    if not isinstance(text, str):
        raise NotationError("bad_notation", gettext_noop("Notation must be a string."))
    if len(text) > 200:
        raise NotationError("bad_notation", gettext_noop("Notation is too long."))
    chains = []
    for token in text.split():
        m = _TOKEN.match(token)
        if not m:
            raise NotationError("bad_notation", gettext_noop("Cannot read %(token)s."), params={"token": repr(token)})
        parts = m.group("chain").split("/")
        if len(parts) < 2:
            raise NotationError("bad_notation", gettext_noop("%(token)s needs a from and a to point, like 13/9."),
                    params={"token": repr(token)})
        points, hits = [], []
        for k, part in enumerate(parts):
            part = part.strip().lower()
            hit = part.endswith("*")
            part = part.rstrip("*")
            if part == "bar" and k == 0:
                p = 25
            elif part == "off" and k == len(parts) - 1:
                p = 0
            elif part.isascii() and part.isdigit() and 1 <= int(part) <= 24:  # "⁵".isdigit(), int("⁵") raises
                p = int(part)
            else:
                raise NotationError("bad_notation", gettext_noop("%(part)s in %(token)s is not a point, 'bar' or 'off'."),
                        params={"part": repr(part), "token": repr(token)})
            if hit and (k == 0 or p == 0):
                raise NotationError("bad_notation", gettext_noop("%(token)s: only a landing point can be a hit."),
                        params={"token": repr(token)})
            points.append(p)
            hits.append(hit)
        chains.extend([(points, hits)] * int(m.group("count") or 1))
    return chains


def parse_play(position: Position, dice, text: str) -> Play:
    """The legal play that ``text`` names, for the side on roll and ``dice``.

    Compound moves (``24/13``) are split into dice; the play is found by the
    position it reaches, so any way of writing the same play works. Raises
    :class:`NotationError` for unreadable text and :class:`IllegalPlay` when
    the play is not legal.
    """
    chains = parse_chains(text)
    color = position.turn
    plays = legal_plays(position, dice)
    if not chains:
        if len(plays) == 1 and not plays[0].steps:
            return plays[0]
        raise IllegalPlay("must_move", gettext_noop("You have a legal move, so you cannot pass."))
    own = position.mover_points(color)
    board = position.board
    if color == WHITE:
        blots = {p for p in range(1, 25) if board[p] == -1}
    else:
        blots = {25 - p for p in range(1, 25) if board[p] == 1}
    hits = 0
    original_blots = frozenset(blots)
    for points, marks in chains:
        for k in range(1, len(points)):
            a, b = points[k - 1], points[k]
            if b >= a:
                raise NotationError("bad_notation", gettext_noop("%(name)s/%(name2)s moves backwards."),
                        params={"name": _name(a), "name2": _name(b)})
            if own[a] <= 0:
                raise IllegalPlay("not_your_checker", gettext_noop("You have no checker on %(name)s."),
                        params={"name": _name(a)})
            own[a] -= 1
            own[b] += 1
            if b > 0 and b in blots:
                blots.discard(b)
                hits |= 1 << b
            elif marks[k] and b not in original_blots:
                raise IllegalPlay("no_blot", gettext_noop("There is no blot to hit on %(name)s."),
                        params={"name": _name(b)})
    target = (tuple(own), hits)
    for play in plays:
        if play.key == target:
            return play
    raise IllegalPlay("illegal_play", gettext_noop("%(value)s is not a legal play with %(dice)s-%(dice2)s."),
            params={"value": text.strip(), "dice": dice[0], "dice2": dice[1]})


__all__ = ["format_play", "parse_chains", "parse_play"]
