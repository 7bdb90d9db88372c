"""Reference answers by exhaustive search, for the small fields of the property tests."""

from __future__ import annotations


def fewest_repeats(players, met) -> int:
    """The fewest pairs that meet again over every way to pair ``players`` (even count)."""
    best = [len(players)]

    def search(rest: list, repeats: int) -> None:
        if repeats >= best[0]:
            return
        if not rest:
            best[0] = repeats
            return
        first = rest[0]
        for i in range(1, len(rest)):
            other = rest[i]
            search(rest[1:i] + rest[i + 1:], repeats + (other in met.get(first, ())))

    search(list(players), 0)
    return best[0]


def fewest_repeats_with_sitout(players, met, candidates) -> int:
    """The fewest repeats when one of ``candidates`` sits out (an odd field)."""
    return min(fewest_repeats([p for p in players if p != c], met) for c in candidates)
