"""Brackets: matches whose players come from a seed, from the winner or the loser of
another match, or from nobody; resolved from the draw and the results so far.

A bracket is a fixed list of :class:`Node` built from the size of the field and the
options alone, so only the draw and the results are stored. Resolving it says, for
every node, who plays (a player, nobody, or not known yet) and what came of it:

- both players known, no result: *pending* (a match to play);
- one player and nobody: a *bye*, the player goes on without a match;
- nobody on either side: *void* (nobody goes on);
- a withdrawn player with nobody against them: *void* too, so a withdrawn player
  never advances by a bye; a withdrawn loser drops into no consolation or losers'
  bracket; the match of a withdrawn player against a present one is a forfeit
  (recorded by :meth:`games.tournament.event.Event.settled`);
- a double forfeit: both are out, nobody goes on and nobody drops.

>>> nodes = elimination_nodes([seed(1), seed(4), seed(2), seed(3)], prefix="M", stage="main")
>>> [(n.key, n.label) for n in nodes]
[('M-R1-1', 'Semi-final'), ('M-R1-2', 'Semi-final'), ('M-R2-1', 'Final')]
>>> slots = resolve(nodes, ("ann", "bob", "cy", None), {}, set())
>>> [(s.key, s.status, s.a, s.b) for s in slots.values()][:2]
[('M-R1-1', 'bye', 'ann', None), ('M-R1-2', 'pending', 'bob', 'cy')]
"""

from __future__ import annotations

from dataclasses import dataclass

WAITING = "waiting"  # a player is not known yet
PENDING = "pending"  # both known: to be played
DONE = "done"  # decided by a result
BYE = "bye"  # one player, nobody against them
VOID = "void"  # nobody goes on
SKIPPED = "skipped"  # a grand final reset that is not needed
SETTLED = (DONE, BYE, VOID, SKIPPED)


class _Unknown:
    """Not known yet (a match that feeds this slot is undecided)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


def seed(n: int) -> tuple:
    return ("seed", n)


def winner_of(key: str) -> tuple:
    return ("winner", key)


def loser_of(key: str) -> tuple:
    return ("loser", key)


NOBODY = ("none", None)


@dataclass(frozen=True)
class Node:
    """One match of a bracket: where its two players come from (``a``, ``b`` are
    sources: ``("seed", n)``, ``("winner", key)``, ``("loser", key)`` or nobody), its
    stage and round in that stage, its readable label. ``final``: a final's length;
    ``secondary``: a consolation or losers' match; ``reset_of``: a grand final reset,
    played by the players of that grand final only if its second player (the losers'
    side) won it."""

    key: str
    stage: str
    round: int
    a: tuple
    b: tuple
    label: str
    final: bool = False
    secondary: bool = False
    reset_of: str | None = None


@dataclass(frozen=True)
class Slot:
    """A node resolved: its players (a player, None for nobody, or UNKNOWN), status,
    winner and loser (the same three kinds of value), and ``step``: the round of the
    whole event in which it can be played at the earliest (1 for the first)."""

    node: Node
    step: int
    a: object
    b: object
    status: str
    winner: object = UNKNOWN
    loser: object = UNKNOWN

    @property
    def key(self) -> str:
        return self.node.key

    def has(self, player) -> bool:
        return player is not None and (self.a == player or self.b == player)

    def to_dict(self) -> dict:
        def show(value):
            return None if value is UNKNOWN else value

        n = self.node
        return {
            "key": n.key, "stage": n.stage, "round": n.round, "step": self.step, "label": n.label,
            "a": show(self.a), "b": show(self.b), "aKnown": self.a is not UNKNOWN, "bKnown": self.b is not UNKNOWN,
            "aFrom": describe(n.a), "bFrom": describe(n.b), "status": self.status,
            "winner": show(self.winner), "loser": show(self.loser),
        }


def describe(source: tuple) -> str:
    kind, ref = source
    return {"seed": f"seed {ref}", "winner": f"winner of {ref}", "loser": f"loser of {ref}"}.get(kind, "")


ROUND_NAMES = {1: "final", 2: "semi-final", 3: "quarter-final"}


def round_label(rounds_left: int, rnd: int, name: str = "") -> str:
    """'Final', 'Semi-final', 'Quarter-final' or 'Round N' (``rounds_left`` 1: the
    last round), after the stage's ``name`` if given.

    >>> round_label(1, 4), round_label(4, 1), round_label(2, 3, "Consolation")
    ('Final', 'Round 1', 'Consolation semi-final')
    """
    word = ROUND_NAMES.get(rounds_left, f"round {rnd}")
    text = f"{name} {word}" if name else word
    return text[0].upper() + text[1:]


def elimination_nodes(sources: list, *, prefix: str, stage: str, name: str = "", secondary: bool = False,
                      first_round: int = 1, final: bool | None = None) -> list:
    """A single-elimination tree over ``sources`` (their count a power of two, 2 at
    least), paired in order: round 1 is sources 1 v 2, 3 v 4... Keys are
    ``{prefix}-R{round}-{match}``; ``final`` marks its last match as a final (default:
    when it is the main stage)."""
    nodes, current, rnd = [], list(sources), first_round
    total = first_round - 1 + (len(sources).bit_length() - 1)
    while len(current) > 1:
        left = total - rnd + 1
        label = round_label(left, rnd, name)
        row = []
        for j in range(len(current) // 2):
            key = f"{prefix}-R{rnd}-{j + 1}"
            is_final = (stage == "main" if final is None else final) and left == 1
            row.append(Node(key, stage, rnd, current[2 * j], current[2 * j + 1], label, is_final, secondary))
        nodes += row
        current = [winner_of(n.key) for n in row]
        rnd += 1
    return nodes


def resolve(nodes, draw: tuple, records: dict, withdrawn: set) -> dict:
    """``{key: Slot}`` for ``nodes`` (each after the nodes it depends on) from ``draw``
    (the player of each seed, seed 1 first, None for an empty place), ``records``
    (``{key: Record}``) and the withdrawn players."""
    slots: dict = {}

    def source(src: tuple):
        kind, ref = src
        if kind == "seed":
            return (draw[ref - 1] if ref <= len(draw) else None), 0
        if kind == "none":
            return None, 0
        slot = slots[ref]
        if kind == "winner":
            return slot.winner, slot.step
        player = slot.loser
        return (None if player is not UNKNOWN and player in withdrawn else player), slot.step

    for node in nodes:
        if node.reset_of is not None:
            slots[node.key] = _reset_slot(node, slots[node.reset_of], records.get(node.key))
            continue
        (a, step_a), (b, step_b) = source(node.a), source(node.b)
        step = 1 + max(step_a, step_b)
        record = records.get(node.key)
        if record is not None:
            slots[node.key] = _done(node, step, record)
        elif a is UNKNOWN or b is UNKNOWN:
            slots[node.key] = Slot(node, step, a, b, WAITING)
        elif a is None or b is None:
            alone = b if a is None else a
            if alone is None or alone in withdrawn:
                slots[node.key] = Slot(node, step, a, b, VOID, None, None)
            else:
                slots[node.key] = Slot(node, step, a, b, BYE, alone, None)
        else:
            slots[node.key] = Slot(node, step, a, b, PENDING)
    return slots


def _done(node: Node, step: int, record) -> Slot:
    p = record.pairing
    return Slot(node, step, p.a, p.b, DONE, record.result.winner, record.loser)


def _reset_slot(node: Node, first: Slot, record) -> Slot:
    step = first.step + 1
    if record is not None:
        return _done(node, step, record)
    if first.status in (WAITING, PENDING):
        return Slot(node, step, UNKNOWN, UNKNOWN, WAITING)
    if first.status == DONE and first.b is not None and first.winner == first.b:
        return Slot(node, step, first.a, first.b, PENDING)
    return Slot(node, step, None, None, SKIPPED, first.winner, None)


__all__ = ["Node", "Slot", "resolve", "elimination_nodes", "seed", "winner_of", "loser_of", "NOBODY", "UNKNOWN",
           "WAITING", "PENDING", "DONE", "BYE", "VOID", "SKIPPED", "SETTLED", "round_label", "describe"]
