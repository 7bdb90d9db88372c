"""backgammon_site.serve.GarbageSchedule: the web process's timed full collection.

Each collection frees the cyclic garbage made since the previous one (a request's thread,
tasks and exceptions) and freezes what survives, so the next one does not scan it again;
every ``thaw_every``-th collection thaws first, so what died among the frozen is freed too."""

import gc
import weakref

import pytest

from backgammon_site.serve import GarbageSchedule


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only the cyclic collector frees it


@pytest.fixture(autouse=True)
def thawed():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_garbage_made_between_two_collections_is_freed_by_the_next():
    schedule = GarbageSchedule(seconds=60, thaw_every=10)
    schedule.collect()
    ref = weakref.ref(Node())  # garbage at once, but a cycle
    schedule.collect()
    assert ref() is None
    assert gc.get_freeze_count() > 0  # the survivors are frozen


def test_what_dies_after_being_frozen_waits_for_the_thaw():
    schedule = GarbageSchedule(seconds=60, thaw_every=3)
    kept = Node()
    ref = weakref.ref(kept)
    schedule.collect()  # run 1: kept survives, frozen
    del kept
    schedule.collect()  # run 2: frozen objects are not scanned
    assert ref() is not None
    schedule.collect()  # run 3: thawed first, then collected
    assert ref() is None


def test_by_default_a_collection_every_10_s_and_a_thaw_every_ten_minutes(monkeypatch):
    """docs/DEPLOY.md ("The timed collection's pause"): short periods keep each pause small,
    and the thaw, the one collection that scans everything, stays every ten minutes."""
    monkeypatch.delenv("GAMES_GC_FULL_SECONDS", raising=False)
    monkeypatch.delenv("GAMES_GC_THAW_EVERY", raising=False)
    schedule = GarbageSchedule()
    assert schedule.seconds == 10
    assert schedule.seconds * schedule.thaw_every == 600
    monkeypatch.setenv("GAMES_GC_FULL_SECONDS", "0")
    assert GarbageSchedule().seconds == 0  # off
