"""Pairing a field for one round: a preferred pairing first, then a maximum matching
over the whole round so that nobody meets a player they must not meet while any
other way to pair the field exists.

Two preferences:

- ``DUTCH`` (the Swiss): players in score groups, best first; in each group the top
  half meets the bottom half (1st v (n/2+1)th, 2nd v (n/2+2)th...). A group of odd size
  floats its lowest player down into the next group, and so does anyone the group
  could not pair.
- ``ADJACENT`` (the arena): neighbours in the order meet (1 v 2, 3 v 4...).

When the preferred pairing leaves players who could only meet someone ``met`` forbids,
the pairing is completed by Edmonds' maximum matching (blossoms), started from the
preferred pairing: each augmenting path changes as few pairs as it must and looks at
the nearest players in the order first. The matching is maximum, so the number of
forbidden pairings left is the smallest possible; those few are then paired in order.

>>> order = ["a", "b", "c", "d"]
>>> pair_field(order, {}).pairs
(('a', 'c'), ('b', 'd'))
>>> pair_field(order, {"a": {"c"}, "c": {"a"}}).pairs
(('a', 'd'), ('b', 'c'))
>>> pair_field(order, {}, style=ADJACENT).pairs
(('a', 'b'), ('c', 'd'))

With an odd field one player sits out: the first candidate whose absence lets the rest
pair with fewest forbidden meetings (here "c" would leave "a" and "b", who met):

>>> draw = pair_field(["a", "b", "c"], {"a": {"b"}, "b": {"a"}}, sitout=["c", "b"])
>>> draw.sitout, draw.pairs, draw.repeats
('b', (('a', 'c'),), 0)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .errors import TournamentError
from games.engine.errors import gettext_noop

DUTCH = "dutch"
ADJACENT = "adjacent"


@dataclass(frozen=True)
class Draw:
    """A round's pairs (better-placed player first, in table order), who sits out (None:
    nobody) and how many pairs meet although ``met`` forbids it."""

    pairs: tuple
    sitout: object
    repeats: int


def pair_field(order, met, *, style: str = DUTCH, groups=None, sitout=()) -> Draw:
    """Pair ``order`` (players, best placed first). ``met`` maps a player to those they
    must not meet if it can be avoided; ``groups`` gives each player's score group label
    (equal labels must be next to each other in ``order``; None: one group). With an odd
    field, one of ``sitout`` (in order of preference) sits out."""
    order = list(order)
    if len(set(order)) != len(order):
        raise TournamentError("duplicate_player", gettext_noop("A player can be paired only once in a round."))
    labels = dict(zip(order, groups)) if groups is not None else {}
    if len(order) % 2 == 0:
        pairs, repeats = _pair_even(order, met, style, labels)
        return Draw(pairs, None, repeats)
    best = None
    present = set(order)
    for candidate in sitout:
        if candidate not in present:
            continue
        rest = [p for p in order if p != candidate]
        pairs, repeats = _pair_even(rest, met, style, labels)
        if repeats == 0:
            return Draw(pairs, candidate, 0)
        if best is None or repeats < best.repeats:
            best = Draw(pairs, candidate, repeats)
    if best is None:
        raise TournamentError("odd_field", gettext_noop("An odd field needs someone to sit out."))
    return best


def _pair_even(order: list, met, style: str, labels: dict) -> tuple:
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    banned = [frozenset(index[q] for q in met.get(p, ()) if q in index) for p in order]
    if style == DUTCH:
        mate = _dutch(n, [labels.get(p) for p in order], banned)
    elif style == ADJACENT:
        mate = _adjacent(n, banned)
    else:
        raise TournamentError("bad_style", gettext_noop("A pairing style is %(DUTCH)s or %(ADJACENT)s."),
                params={"DUTCH": DUTCH, "ADJACENT": ADJACENT})
    for v in range(n):
        if mate[v] == -1:
            _augment(v, mate, banned)
    left = [v for v in range(n) if mate[v] == -1]
    for u, v in zip(left[::2], left[1::2]):
        mate[u], mate[v] = v, u
    pairs = tuple((order[v], order[mate[v]]) for v in range(n) if v < mate[v])
    repeats = sum(1 for v in range(n) if v < mate[v] and mate[v] in banned[v])
    return pairs, repeats


def _dutch(n: int, labels: list, banned: list) -> list:
    """The preferred Swiss pairing (see the module docstring); -1 for the unpaired."""
    mate = [-1] * n
    floaters: list = []
    start = 0
    while start < n:
        end = start
        while end < n and labels[end] == labels[start]:
            end += 1
        bracket = sorted(floaters) + list(range(start, end))
        floaters = []
        if len(bracket) % 2 and end < n:
            floaters.append(bracket.pop())
        half = len(bracket) // 2
        top, bottom = bracket[:half], bracket[half:]
        for p in top:
            if mate[p] != -1:
                continue
            q = _first_free(p, bottom, mate, banned)
            if q is None:
                q = _first_free(p, [t for t in top if t > p], mate, banned)
            if q is not None:
                mate[p], mate[q] = q, p
        floaters += [p for p in bracket if mate[p] == -1]
        start = end
    return mate


def _adjacent(n: int, banned: list) -> list:
    mate = [-1] * n
    for p in range(n):
        if mate[p] == -1:
            q = _first_free(p, range(p + 1, n), mate, banned)
            if q is not None:
                mate[p], mate[q] = q, p
    return mate


def _first_free(p: int, candidates, mate: list, banned: list):
    for q in candidates:
        if mate[q] == -1 and q != p and q not in banned[p]:
            return q
    return None


def _nearest(v: int, n: int):
    """Every other index, nearest to ``v`` first."""
    for d in range(1, n):
        if v - d >= 0:
            yield v - d
        if v + d < n:
            yield v + d


def _augment(root: int, mate: list, banned: list) -> bool:
    """Edmonds: look for an augmenting path from the unmatched ``root`` over allowed
    pairs (blossoms contracted through ``base``) and flip it if found."""
    n = len(mate)
    base = list(range(n))
    parent = [-1] * n
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in _nearest(v, n):
            if to in banned[v] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = lca(v, to)
                blossom = [False] * n
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:
                        pv = parent[to]
                        ppv = mate[pv]
                        mate[to], mate[pv] = pv, to
                        to = ppv
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


__all__ = ["DUTCH", "ADJACENT", "Draw", "pair_field"]
