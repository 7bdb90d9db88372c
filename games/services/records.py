"""The record of one action, the same for matches and chouettes: numbered events written
in one insert when the action ends, and one typed :class:`~games.events.Batch` published
after the commit.

Every write of play follows the same steps, whatever the table (``services.games`` for a
match, ``services.chouettes`` for a chouette): lock the table's row first (the match, or
the chouette: the lock order of ``services.lifecycle``), :func:`check_version`, let the
engine play the action through its one surface (``state.apply(name, actor, **fields)``),
``add`` each event to the table's :class:`Record`, ``commit`` it.
"""

from __future__ import annotations

from games.errors import BadRequest, Conflict
from games.events import Batch, publish_on_commit
from django.utils.translation import gettext


def check_version(current: int, expected, what: str = "game") -> None:
    """Refuse an action sent for another version than ``current`` (None: not checked)."""
    if expected is None:
        return
    if type(expected) is not int or expected < 0:
        raise BadRequest("bad_version", gettext("The version must be a non-negative integer."))
    if expected != current:
        raise Conflict("stale_version",
                       gettext("The %(what)s has moved on (version %(current)s, you sent %(expected)s); refresh and try again.")
                               % {"what": what, "current": current, "expected": expected})


class Record:
    """The events of one action on one table, written and published when the action ends.

    A table's record numbers its events (:meth:`add`, its own), stores them with the rows
    the action changed (:meth:`write`), and says what they look like on the wire
    (:meth:`envelopes`), whether the lobby changed (:meth:`lobby`) and what they leave to
    the workers (:meth:`work`); :meth:`commit` does the rest the same way for every table.
    """

    def __init__(self, group: str):
        self.group = group
        self.items: list = []

    def write(self) -> list:  # pragma: no cover - each table's own
        """Store the events (one insert) and the rows the action changed; the stored rows."""
        raise NotImplementedError

    def envelopes(self, rows: list) -> list:  # pragma: no cover - each table's own
        raise NotImplementedError

    def lobby(self) -> dict | None:
        return None

    def work(self) -> list:
        return []

    def commit(self) -> Batch:
        """Inside the action's transaction: write everything, then publish one batch after
        the commit (never for a rolled-back one)."""
        rows = self.write()
        batch = Batch(group=self.group, events=self.envelopes(rows), lobby=self.lobby(),
                      work=self.work() if self.items else [])
        publish_on_commit(batch)
        return batch
