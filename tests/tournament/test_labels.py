"""Every name the tournament core gives a match or a bracket slot is one the reader's language
can word (``games.tournament.labels``): a name it could not read back would stay in English."""

import random

import pytest

from games.tournament import new_event
from games.tournament.labels import parse
from tests.tournament.drive import play_out

CASES = [("knockout", 8, {"consolation": kind}) for kind in ("none", "simple", "progressive")] + [
    ("knockout", 13, {"consolation": "progressive"}), ("knockout", 32, {}),
    ("double", 8, {"reset": True}), ("double", 11, {"reset": False}), ("double", 16, {}),
    ("swiss", 9, {}), ("roundrobin", 5, {}), ("groups", 12, {}),
]


@pytest.mark.parametrize("fmt,count,options", CASES)
def test_every_name_of_an_event_is_read_back(fmt, count, options):
    names = set()

    def seen(event):
        names.update(p.label for p in event.pending())
        for node in getattr(event, "bracket", lambda: [])():
            names.update(node[k] for k in ("label", "aFrom", "bFrom") if node[k])

    event = new_event(fmt, [f"p{i}" for i in range(count)], options)
    seen(event)
    play_out(event, random.Random(count), check=seen, trip_every=0)
    assert names and not [n for n in names if parse(n) is None]


def test_an_arenas_names_and_a_name_the_core_never_gives():
    """The arena pairs as players free up (its own tests drive its clock): its one name."""
    assert parse("Arena match 12") == ("Arena match %(number)s", {"number": 12})
    assert parse("Round 2, table 3x") is None and parse("") is None
