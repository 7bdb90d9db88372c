"""Long-polling: answer as soon as a version passes what the client holds.

Used by the match view (``GET /api/matches/<id>?wait=&since=``) and the chouette view
(``GET /api/chouettes/<id>?wait=&since=``). A waiting request holds no thread and no
database connection: it listens on the channel-layer group the services publish the
match's (or the chouette's) batches to, and reads the version from the database

- once **after** joining the group, so a change committed while the poll was being set up
  is seen by that read or arrives as a message (never neither);
- after every message of the group (a move, a chat line, a presence notice: the version
  says whether it is the change waited for);
- every ``GAMES_LONG_POLL_RECHECK`` seconds whatever the layer does, because the layer
  delivers at most once and can drop a message (a Redis restart): a lost message costs at
  most that long.

The view answered is read afresh in one consistent read (``games.api.agent_view``).
"""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from games import conf


def recheck_every() -> float:
    """Seconds between two database reads of a waiting poll (docs/BOT_API.md)."""
    return float(conf.value("GAMES_LONG_POLL_RECHECK"))


async def wait_past(layer, group: str, version_now, since: int, wait: float) -> int:
    """Wait until ``version_now()`` (a synchronous read) exceeds ``since`` or ``wait`` seconds
    pass; the last version read. ``layer`` may be None (then the database alone is read)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    read = sync_to_async(version_now)
    channel = None
    if layer is not None:
        try:
            channel = await layer.new_channel()
            await layer.group_add(group, channel)
        except Exception:  # no layer to listen on: read the database only
            channel = None
    try:
        while True:
            version = await read()
            remaining = deadline - loop.time()
            if version > since or remaining <= 0:
                return version
            step = min(remaining, recheck_every())
            try:
                if channel is not None:
                    await asyncio.wait_for(layer.receive(channel), timeout=step)
                else:
                    await asyncio.sleep(step)
            except asyncio.TimeoutError:
                pass
            except Exception:  # the layer failed: read the database from now on
                channel = None
    finally:
        if channel is not None:
            try:
                await layer.group_discard(group, channel)
            except Exception:
                pass
