"""Legal plays: generation and checking.

A *step* moves one checker by one die (``Step(24, 18)``, ``Step("bar", 22)``,
``Step(3, "off")``) in the absolute frame of RULES.md. A *play* is the whole
turn: the steps of every die that can be used. Two plays that reach the same
position are the same play, so :func:`legal_plays` returns one play per
distinct resulting position.

>>> from .position import Position
>>> plays = legal_plays(Position.initial(), (3, 1))
>>> len(plays)
16
>>> best = check_play(Position.initial(), (3, 1), [Step(8, 5), Step(6, 5)])
>>> best.result.board[5], best.result.turn
(2, 'black')
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from .errors import IllegalPlay, InvalidPlay
from .play import _WIRE_STEP, BAR, OFF, Play, Step, _to_mover
from .position import BLACK, WHITE, Position, other
from games.engine.errors import gettext_noop

def _opponent_points(pos: Position, color: str) -> list:
    """Opponent checkers on each of the mover's points (index 1..24)."""
    board = pos.board
    if color == WHITE:
        return [-v if v < 0 else 0 for v in board] + [0]
    opp = [0] * 26
    for p in range(1, 25):
        v = board[25 - p]
        if v > 0:
            opp[p] = v
    return opp


def _generate(own: list, opp: list, d1: int, d2: int) -> dict:
    """All maximal plays in the mover's frame: ``{(own tuple, hits): steps}``.

    ``own`` is the mover's checkers (index 25 bar, 0 off); ``opp`` the
    opponent's checkers on the mover's points. Both are used as scratch space
    and restored. Steps are ``(src, dst, die)`` with ``dst == 0`` meaning off.
    Non-doubles try both dice orders; doubles move checkers in non-increasing
    order of their source point, which reaches every distinct result once.
    The step code is written out inline: this is the hot loop of the engine.
    """
    if d1 == d2:
        return _generate_doubles(own, opp, d1)
    results = {}
    best = 0
    outside0 = sum(own[7:26])
    for a, b in ((d1, d2), (d2, d1)):
        for src1 in ((25,) if own[25] else [p for p in range(24, 0, -1) if own[p]]):
            dst1 = src1 - a
            hit1 = 0
            if dst1 > 0:
                n = opp[dst1]
                if n >= 2:
                    continue
                own[src1] -= 1
                own[dst1] += 1
                if n:
                    opp[dst1] = 0
                    hit1 = 1 << dst1
                outside1 = outside0 - 1 if src1 > 6 >= dst1 else outside0
            else:
                if outside0 or (dst1 < 0 and any(own[src1 + 1 : 7])):
                    continue
                dst1 = 0
                own[src1] -= 1
                own[0] += 1
                outside1 = 0
            step1 = (src1, dst1, a)
            if own[0] == 15:  # the game is over: nothing more could be played
                if best < 2:
                    best = 2
                    results.clear()
                results.setdefault((tuple(own), hit1), (step1,))
            else:
                moved = False
                for src2 in ((25,) if own[25] else [p for p in range(24, 0, -1) if own[p]]):
                    dst2 = src2 - b
                    if dst2 > 0:
                        n = opp[dst2]
                        if n >= 2:
                            continue
                        moved = True
                        if best < 2:
                            best = 2
                            results.clear()
                        own[src2] -= 1
                        own[dst2] += 1
                        key = (tuple(own), hit1 | (1 << dst2) if n else hit1)
                        own[src2] += 1
                        own[dst2] -= 1
                    else:
                        if outside1 or (dst2 < 0 and any(own[src2 + 1 : 7])):
                            continue
                        moved = True
                        if best < 2:
                            best = 2
                            results.clear()
                        dst2 = 0
                        own[src2] -= 1
                        own[0] += 1
                        key = (tuple(own), hit1)
                        own[src2] += 1
                        own[0] -= 1
                    if key not in results:
                        results[key] = (step1, (src2, dst2, b))
                if not moved and best < 2:
                    best = 1
                    results.setdefault((tuple(own), hit1), (step1,))
            own[src1] += 1
            own[dst1] -= 1  # dst1 == 0 undoes the bear-off
            if hit1:
                opp[dst1] = 1
    if best == 0:
        return {(tuple(own), 0): ()}
    if best == 1:
        high = d1 if d1 > d2 else d2
        with_high = {k: v for k, v in results.items() if v[0][2] == high}
        if with_high:
            return with_high
    return results


def _generate_doubles(own: list, opp: list, die: int) -> dict:
    results = {}
    best = [-1]

    def rec(depth, lim, steps, hits, outside):
        if depth == 4 or own[0] == 15:
            used = 4
        else:
            moved = False
            for src in ((25,) if own[25] else [p for p in range(lim, 0, -1) if own[p]]):
                dst = src - die
                if dst > 0:
                    n = opp[dst]
                    if n >= 2:
                        continue
                    moved = True
                    own[src] -= 1
                    own[dst] += 1
                    if n:
                        opp[dst] = 0
                        rec(depth + 1, src if src < 25 else 24, steps + ((src, dst, die),), hits | (1 << dst),
                            outside - 1 if src > 6 >= dst else outside)
                        opp[dst] = 1
                    else:
                        rec(depth + 1, src if src < 25 else 24, steps + ((src, dst, die),), hits,
                            outside - 1 if src > 6 >= dst else outside)
                    own[src] += 1
                    own[dst] -= 1
                else:
                    if outside or (dst < 0 and any(own[src + 1 : 7])):
                        continue
                    moved = True
                    own[src] -= 1
                    own[0] += 1
                    rec(depth + 1, src, steps + ((src, 0, die),), hits, 0)
                    own[src] += 1
                    own[0] -= 1
            if moved:
                return
            used = depth
        if used < best[0]:
            return
        if used > best[0]:
            best[0] = used
            results.clear()
        key = (tuple(own), hits)
        if key not in results:
            results[key] = steps

    rec(0, 24, (), 0, sum(own[7:26]))
    return results


def _check_dice(dice) -> tuple:
    if (
        not isinstance(dice, (list, tuple))
        or len(dice) != 2
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise InvalidPlay("bad_dice", gettext_noop("Dice must be two integers from 1 to 6."))
    return int(dice[0]), int(dice[1])


def legal_plays(position: Position, dice) -> list:
    """Every legal play for the side on roll, one per distinct resulting position.

    When nothing can be played the list holds one empty play (the pass).
    """
    d1, d2 = _check_dice(dice)
    return list(_legal_plays(position, d1, d2))


@lru_cache(maxsize=1024)
def _legal_plays(position: Position, d1: int, d2: int) -> tuple:
    """The plays, remembered: a server lists them when the dice are rolled and checks the
    play it is sent against them a moment later (positions and plays are immutable). 1024
    entries cover the turns in progress of a busy web process (about 5 s at 100 moves/s)."""
    color = position.turn
    own = position.mover_points(color)
    opp = _opponent_points(position, color)
    found = _generate(own, opp, d1, d2)
    return tuple(Play(position, color, steps, key[0], key[1]) for key, steps in found.items())


def plays_json(plays) -> str:
    """``plays`` in their wire form (:meth:`Play.to_list` of each) as compact JSON text,
    built from each step's text: what ``json.dumps`` would give, at a fifth of the cost.

    >>> import json
    >>> from .position import Position
    >>> plays = legal_plays(Position.initial(), (6, 5))
    >>> plays_json(plays) == json.dumps([p.to_list() for p in plays], separators=(",", ":"))
    True
    >>> plays_json(plays[:1])
    '[[{"from":24,"to":18},{"from":18,"to":13}]]'
    """
    return "[" + ",".join(["[" + ",".join([_WIRE_STEP[p.color][s][d] for s, d, _die in p._msteps]) + "]"
                           for p in plays]) + "]"


def legal_move_lists(position: Position, dice) -> list:
    """``legalMoves`` as the bot API serves it: a list of step lists (wire dicts)."""
    return [play.to_list() for play in legal_plays(position, dice)]


def _simulate(position: Position, dice, steps) -> tuple:
    """Play ``steps`` in order, each with a die; returns (own, opp, hits, dice used)
    or raises :class:`IllegalPlay` naming the first step that cannot be played."""
    color = position.turn
    own = position.mover_points(color)
    opp = _opponent_points(position, color)
    remaining = list(dice) if dice[0] != dice[1] else [dice[0]] * 4
    hits = 0
    for index, step in enumerate(steps):
        src = _to_mover(color, step.src, True)
        dst = _to_mover(color, step.dst, False)
        if not remaining:
            raise IllegalPlay("too_many_steps", gettext_noop("Step %(step)s (%(src)s/%(dst)s): every die has already been used."), step=index,
                    params={"step": index + 1, "src": step.src, "dst": step.dst})
        if own[src] == 0:
            if src == 25:
                raise IllegalPlay("not_on_bar", gettext_noop("Step %(step)s (%(src)s/%(dst)s): you have no checker on the bar."), step=index,
                        params={"step": index + 1, "src": step.src, "dst": step.dst})
            raise IllegalPlay("not_your_checker", gettext_noop("Step %(step)s (%(src)s/%(dst)s): you have no checker on point %(src)s."), step=index,
                    params={"step": index + 1, "src": step.src, "dst": step.dst})
        if own[25] and src != 25:
            raise IllegalPlay("must_enter_first", gettext_noop("Step %(step)s (%(src)s/%(dst)s): checkers on the bar must enter first."), step=index,
                    params={"step": index + 1, "src": step.src, "dst": step.dst})
        if dst > 0 and dst >= src:
            raise IllegalPlay("wrong_direction", gettext_noop("Step %(step)s (%(src)s/%(dst)s): checkers cannot move backwards."), step=index,
                    params={"step": index + 1, "src": step.src, "dst": step.dst})
        distance = src - dst
        if dst > 0:
            if distance not in remaining:
                raise IllegalPlay(
                    "no_matching_die",
                    gettext_noop("Step %(step)s (%(src)s/%(dst)s): no remaining die is a %(distance)s (dice left: %(sorted)s)."),
                    step=index,
                            params={"step": index + 1, "src": step.src, "dst": step.dst, "distance": distance, "sorted": sorted(remaining)},
                )
            if opp[dst] >= 2:
                raise IllegalPlay("blocked_point", gettext_noop("Step %(step)s (%(src)s/%(dst)s): point %(dst)s is blocked."), step=index,
                        params={"step": index + 1, "src": step.src, "dst": step.dst})
            die = distance
            own[src] -= 1
            own[dst] += 1
            if opp[dst] == 1:
                opp[dst] = 0
                hits |= 1 << dst
        else:
            if sum(own[7:26]):
                raise IllegalPlay(
                    "cannot_bear_off",
                    gettext_noop("Step %(step)s (%(src)s/%(dst)s): you cannot bear off until all your checkers are in your home board."),
                    step=index, params={"step": index + 1, "src": step.src, "dst": step.dst},
                )
            if distance in remaining:
                die = distance
            else:
                larger = sorted(d for d in remaining if d > distance)
                if not larger:
                    raise IllegalPlay(
                        "no_matching_die",
                        gettext_noop("Step %(step)s (%(src)s/%(dst)s): no remaining die bears off from there (dice left: %(sorted)s)."),
                        step=index,
                                params={"step": index + 1, "src": step.src, "dst": step.dst, "sorted": sorted(remaining)},
                    )
                if any(own[q] for q in range(src + 1, 7)):
                    raise IllegalPlay(
                        "higher_checker_first",
                        gettext_noop("Step %(step)s (%(src)s/%(dst)s): a larger die bears off only from your highest point."),
                        step=index, params={"step": index + 1, "src": step.src, "dst": step.dst},
                    )
                die = larger[0]
            own[src] -= 1
            own[0] += 1
        remaining.remove(die)
    return own, hits, (4 if dice[0] == dice[1] else 2) - len(remaining)


def check_play(position: Position, dice, steps) -> Play:
    """Validate a submitted play (any order of its steps) and return it as a :class:`Play`.

    ``steps`` are :class:`Step` values or wire dicts. Raises
    :class:`IllegalPlay` with a code saying why: ``bad_step``,
    ``not_your_checker``, ``must_enter_first``, ``blocked_point``,
    ``cannot_bear_off``, ``no_matching_die``, ``must_use_both_dice``,
    ``must_use_higher_die``, ``must_move``, ...
    """
    d1, d2 = _check_dice(dice)
    if not isinstance(steps, (list, tuple)):
        raise InvalidPlay("bad_play", gettext_noop("A play must be a list of steps."))
    if len(steps) > 4:
        raise InvalidPlay("too_many_steps", gettext_noop("A play has at most four steps."))
    steps = [s if isinstance(s, Step) else Step.from_dict(s) for s in steps]
    plays = legal_plays(position, (d1, d2))
    by_key = {p.key: p for p in plays}
    color = position.turn
    if not steps:
        if len(plays) == 1 and not plays[0].steps:
            return plays[0]
        raise IllegalPlay("must_move", gettext_noop("You have a legal move, so you cannot pass."))

    first_error = None
    used = None
    for order in permutations(range(len(steps))):
        ordered = [steps[i] for i in order]
        try:
            own, hits, used = _simulate(position, (d1, d2), ordered)
        except IllegalPlay as exc:
            if first_error is None:
                first_error = exc
            continue
        if (tuple(own), hits) in by_key:
            return Play(position, color, (), own, hits, steps=ordered)
    if used is None:
        raise first_error
    # Every step can be played, but the play as a whole is not a legal one.
    most = max(len(p.steps) for p in plays)
    if used < most:
        if d1 != d2:
            raise IllegalPlay("must_use_both_dice", gettext_noop("Both dice can be played, so you must play both."))
        raise IllegalPlay("must_use_all_dice", gettext_noop("You can play %(most)s dice; you must play as many as possible."),
                params={"most": most})
    if d1 != d2 and most == 1:
        raise IllegalPlay("must_use_higher_die", gettext_noop("Only one die can be played, so it must be the higher one."))
    raise IllegalPlay("illegal_play", gettext_noop("That play is not legal here."))


def apply_play(position: Position, dice, steps) -> Position:
    """Check ``steps`` and return the position after them (opponent on roll)."""
    return check_play(position, dice, steps).result


def can_move(position: Position, dice) -> bool:
    """Whether the side on roll has any legal step with these dice."""
    plays = legal_plays(position, dice)
    return bool(plays[0].steps)


__all__ = [
    "BAR",
    "OFF",
    "Step",
    "Play",
    "legal_plays",
    "legal_move_lists",
    "plays_json",
    "check_play",
    "apply_play",
    "can_move",
    "other",
]
