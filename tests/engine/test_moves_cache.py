"""The legal plays are remembered per (position, dice): every caller still gets a list of
its own, equal to a fresh computation."""

from games.engine.moves import _legal_plays, legal_plays
from games.engine.position import Position


def test_a_remembered_list_is_the_callers_own():
    position = Position.initial()
    first = legal_plays(position, (3, 1))
    first.clear()  # a caller may change its list
    again = legal_plays(position, (3, 1))
    assert again and [p.to_list() for p in again] == [p.to_list() for p in _legal_plays.__wrapped__(position, 3, 1)]
    assert again is not legal_plays(position, (3, 1))
