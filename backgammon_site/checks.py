"""The web server's periodic checks of its connections, visiting only those that need one.

Daphne walks every connection every second (``application_checker``: forget what has closed,
report a crashed application) and every 2 s (``timeout_checker``: timeouts, the keepalive
ping and here the server's ping). With 10,000 idle sockets these walks paused the event loop
12-35 ms and 80-160 ms each time, and every move arriving meanwhile waited behind them (the
p99 of ``bench/ws_bench.py``; issue 32, docs/DEPLOY.md "Measured capacity"). Here:

- an open websocket checks itself when one of its checks may be due
  (``KeepaliveWebSocketProtocol.own_check`` in ``backgammon_site/serve.py``), in a slot of a
  :class:`CheckWheel`; the 2 s walk covers only the rest (HTTP requests, websockets not yet
  open): :meth:`CheckedServer.timeout_checker`;
- the application check visits the connections that closed or whose application ended since
  the last one, and those still waiting for their application to end
  (:meth:`CheckedServer.application_checker`).

What Daphne does for each connection it looks at is unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from concurrent.futures import CancelledError

logger = logging.getLogger(__name__)
daphne_logger = logging.getLogger("daphne.server")  # Daphne's own lines, as it words them


class CheckWheel:
    """Things to call back after a delay, each in the slot of the ``TICK`` it is due at, and
    one timer that runs the slots as their ticks come (a hashed timing wheel).

    A timer per socket (a ``callLater`` each) woke the event loop once per check, about
    30-45 µs each: 60-90 ms of CPU a second for 10,000 idle sockets checked every 5 s. Here
    one wake-up every ``TICK`` runs everything due by then. A delay is rounded up to a whole
    tick and cut to ``SLOTS - 1`` ticks; an item is called back with ``item.own_check()``, and
    adds itself again if it wants another. A failing callback is logged and the others run.

    The tick is half a second: the server's pings of a tick go out together, which the
    kernel handles more cheaply than one at a time (2000 idle sockets: 46 ms of CPU a second
    with a 0.1 s tick, 32 with 0.5 s, 27 with Daphne's walk every 2 s), and a tick's work
    stays a few tens of milliseconds with 10,000 sockets (the walk's was 80-160).
    """

    TICK = 0.5
    SLOTS = 32  # 16 s ahead at most

    def __init__(self, clock, now=None):
        self.clock = clock  # its ``callLater``: Twisted's reactor, or a test's Clock
        self.now = now or clock.seconds  # the time of the ticks (the process's: monotonic)
        self.slots = [[] for _ in range(self.SLOTS)]
        self.done = None  # the last tick whose slot has run (None: not started)

    @property
    def size(self) -> int:
        """Items waiting."""
        return sum(map(len, self.slots))

    def _tick_now(self) -> int:
        return int(self.now() / self.TICK + 1e-6)  # 0.30000000000000004 / 0.1 is tick 3, not 2

    def add(self, item, delay: float) -> None:
        now = self._tick_now()
        if self.done is None:
            self.done = now
            self._next()
        tick = now + min(max(1, math.ceil(delay / self.TICK)), self.SLOTS - 1)
        tick = max(self.done + 1, min(tick, self.done + self.SLOTS - 1))  # a slot not run yet, not wrapped
        self.slots[tick % self.SLOTS].append(item)

    def run(self) -> int:
        """Run every slot whose tick has come; the number of items called back."""
        now, called = self._tick_now(), 0
        try:
            while self.done < now:
                self.done += 1
                index = self.done % self.SLOTS
                due, self.slots[index] = self.slots[index], []
                called += len(due)
                for item in due:
                    try:
                        item.own_check()
                    except Exception:
                        logger.exception("A connection's check failed")
        finally:
            self._next()
        return called

    def _next(self) -> None:
        self.clock.callLater(max(0.0, (self.done + 1) * self.TICK - self.now()), self.run)


class CheckedServer:
    """Daphne's ``Server``'s checks, for the connections that need them (a mixin before
    ``daphne.server.Server``). A protocol that checks itself leaves ``swept`` (:meth:`checks_itself`)."""

    clock = None  # what schedules the next check: Daphne's reactor (a test's Clock)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.attention = set()  # protocols the next application check looks at
        self.swept = set()  # protocols the 2 s walk checks

    def _later(self, seconds: float, what) -> None:
        if self.clock is None:
            from daphne.server import reactor

            self.clock = reactor
        self.clock.callLater(seconds, what)

    def checks_itself(self, protocol) -> None:
        self.swept.discard(protocol)

    def protocol_connected(self, protocol):
        super().protocol_connected(protocol)
        self.swept.add(protocol)

    def protocol_disconnected(self, protocol):
        super().protocol_disconnected(protocol)
        self.attention.add(protocol)

    def watch_application(self, protocol) -> None:
        """Looked at by the next application check once the connection's application ends."""
        instance = self.connections.get(protocol, {}).get("application_instance")
        if instance is not None:
            instance.add_done_callback(lambda _: self.attention.add(protocol))

    def timeout_checker(self):
        """Daphne's 2 s check, for the connections in ``swept``."""
        for protocol in list(self.swept):
            if protocol not in self.connections:
                self.swept.discard(protocol)
                continue
            try:
                protocol.check_timeouts()
            except Exception:
                logger.exception("A connection's check failed")
        self._later(2, self.timeout_checker)

    def application_checker(self):
        """Daphne's 1 s check, for the connections in ``attention``. One whose check fails
        is logged and looked at again next time (Daphne's loop stopped for good)."""
        todo, self.attention = self.attention, set()
        for protocol in todo:
            try:
                again = protocol in self.connections and self.check_application(protocol)
            except Exception:
                logger.exception("A connection's application check failed")
                again = True
            if again:
                self.attention.add(protocol)
        self._later(1, self.application_checker)

    def check_application(self, protocol) -> bool:
        """Daphne's check of one connection: cancel an application that outlives its closed
        connection by ``application_close_timeout``, report one that failed, forget a closed
        connection whose application has ended. True while it needs looking at again (closed,
        its application still running)."""
        details = self.connections[protocol]
        disconnected = details.get("disconnected")
        instance = details.get("application_instance")
        if disconnected and time.time() - disconnected > self.application_close_timeout:
            if instance is not None and not instance.done():
                daphne_logger.warning("Application instance %r for connection %s took too long to shut down and was killed.",
                               instance, repr(protocol))
                instance.cancel()
        if instance is not None and instance.done():
            try:
                exception = instance.exception()
            except (CancelledError, asyncio.CancelledError):
                pass
            else:
                if exception:
                    if isinstance(exception, KeyboardInterrupt):
                        self.stop()
                    else:
                        daphne_logger.error("Exception inside application: %s", exception, exc_info=exception)
                        if not disconnected:
                            protocol.handle_exception(exception)
            del details["application_instance"]
            instance = None
        if instance is None and disconnected:
            del self.connections[protocol]
            self.swept.discard(protocol)
            return False
        return bool(disconnected)
