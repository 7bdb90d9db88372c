"""Daphne, closing oversized websocket messages with 1009 instead of dropping the connection.

Run it exactly like the ``daphne`` command: ``python -m backgammon_site.serve -b 127.0.0.1
-p 8000 --websocket-max-message-size 65536 --websocket-max-frame-size 65536
backgammon_site.asgi:application``.

Daphne's limits (``--websocket-max-message-size``/``--websocket-max-frame-size``) are
enforced by autobahn, which by default *drops* the TCP connection of a client that goes over
them (its ``failByDrop`` option), so the client sees no close code at all. The application
cannot send 1009 itself (autobahn lets it send only 1000 and 3000-4999), so the close must
come from the protocol layer: here ``failByDrop`` is off, and autobahn answers a message
over the limit with a close frame, code 1009 ("message too big") and a reason, then closes.
Messages under the transport limit but over the protocol's 4 KB (docs/PROTOCOL.md) are
refused by the consumer with ``too_large`` and the socket stays open.

The limits are the client's: autobahn applies ``maxMessagePayloadSize`` to what the server
sends as well, and a frame of ours over it killed the socket's consumer (a roll of doubles
can leave 2000 legal plays, 170 KB of ``legalMoves``); the client's resync then asked for the
same frame again. What the server sends has no limit here.

A frame is written to the client's socket at once when nothing is waiting to be written
(:func:`eager_write`), as asyncio's own transports do, instead of always waiting for the
next turn of the event loop (issue 16).

Every websocket has a ``games.realtime.wire.Wire`` in its scope: through it the protocol
layer answers an idle ping from a client that misses nothing without the Channels round trip,
and pings a silent client itself with the version it has been sent (issue 32; docs/PROTOCOL.md,
"Delivery").
"""

from __future__ import annotations

import gc
import os
import pprint
import random
import sys
import time

from autobahn.websocket import protocol as autobahn_protocol
from daphne import server as daphne_server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet import tcp

from backgammon_site.checks import CheckedServer, CheckWheel
from games.realtime.wire import EXTENSION, Wire  # noqa: F401 - Wire: the tests build one here


def eager_write(transport, data: bytes) -> None:
    """``transport.write(data)``, sending at once when nothing is waiting to be written.

    Twisted's TCP transport always buffers a write and asks the event loop to tell it when
    the socket is writable (an ``epoll_ctl`` to watch it, a turn of the loop, the send, an
    ``epoll_ctl`` to stop watching). A socket with nothing waiting almost always takes a
    small frame whole, so that costs three system calls and a loop turn per socket per
    frame for nothing. Here the frame goes straight to the socket; what it does not take
    (a slow client), and everything on a transport that is not plain TCP (TLS) or that has
    something waiting, goes through Twisted's own buffered write, so frames stay in order
    and an error is found where Twisted looks for it.
    """
    if (type(transport) is not tcp.Server or not transport.connected or transport.disconnecting
            or transport._writeDisconnected or transport._tempDataLen
            or transport.offset != len(transport.dataBuffer)):
        transport.write(data)
        return
    try:
        sent = transport.socket.send(data)
    except OSError:  # full (EAGAIN), or gone: Twisted's path waits, or finds the error
        sent = 0
    if sent < len(data):
        transport.write(data[sent:])


def text_frame(payload: bytes) -> bytes:
    """A server's websocket frame (RFC 6455, 5.2) of one whole text message: FIN, opcode 1, not
    masked, the payload's length in 7, 16 or 64 bits."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


_WHEEL = []


def process_wheel() -> CheckWheel:
    """The process's wheel of the sockets' own checks, on Daphne's reactor."""
    if not _WHEEL:
        _WHEEL.append(CheckWheel(daphne_server.reactor, time.monotonic))
    return _WHEEL[0]


class _Formatted:
    """``pprint.pformat(value)``, worked out only if it is ever printed."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __str__(self):
        return pprint.pformat(self.value)

    __repr__ = __format__ = lambda self, *_: str(self)


def lazy_pformat(value, *args, **kwargs):
    """autobahn formats the list of every option of each new connection for a debug line that
    is not logged (about 3 ms of CPU a socket: a reconnection storm of 2000 sockets cost
    seconds): that list's formatting waits until the line is written. Anything else (a
    ``__str__`` must return text) is formatted at once, as before."""
    if type(value) is list and not (args or kwargs):
        return _Formatted(value)
    return pprint.pformat(value, *args, **kwargs)


class KeepaliveWebSocketProtocol(WebSocketProtocol):
    """Daphne's protocol, whose keepalive ping is not sent to a client that pings us, and
    whose message limit bounds what clients send, not what it sends them.

    Daphne pings every socket every ``--ping-interval`` s (20) unless a message came from
    it meanwhile, and closes it if no pong comes within ``--ping-timeout``: that is how a
    dead client is found. A client that sends protocol pings of its own (the ``websockets``
    library does, every 20 s; bots built on it too) is just as plainly alive, so its ping
    counts like a message: a dead client is still found as soon as before, and a process
    with 2000 such idle sockets sends 100 fewer pings a second (issue 16).
    """

    # time.monotonic() of the last message written to the client: its protocol pings and pongs
    # do not count (a browser's page never sees them, so they do not stand for the server's ping)
    wrote_at = 0.0
    wire = None
    CHECK_MIN, CHECK_MAX = 0.05, 10.0  # s: the bounds of the wait for a socket's own check
    checking = False  # whether the socket's own check is in the wheel (it is then left out of Daphne's walk)
    wheel = None  # the wheel of its own checks: the process's (a test's own)

    def onConnect(self, request):
        self.wire = Wire(self.send_text, self.send_texts)
        # x the wire's ``every``: idle sockets' pings spread out, at 1.25 times it on average (the
        # cadence of Daphne's 2 s walk, which pinged a socket at the first walk after 0.75-1.25 times)
        self.ping_every = 1.0 + 0.5 * random.random()
        return super().onConnect(request)

    def onMessage(self, payload, isBinary):
        """An idle ping the wire can answer is answered here, without the application."""
        if not isBinary and self.wire is not None and not self.muted:
            reply = self.wire.answer(payload)
            if reply is not None:
                self.last_ping = time.time()  # heard from: Daphne's keepalive need not ping it
                self.sendMessage(reply.encode())
                return
        super().onMessage(payload, isBinary)

    def send_text(self, text: str) -> None:
        """A text frame from the attached consumer, written now (``Wire.send``); nothing
        once the socket is closing (the consumer's disconnect follows)."""
        if self.state == self.STATE_OPEN:
            self.sendMessage(text.encode())

    def send_texts(self, texts: list) -> None:
        """Text frames from the attached consumer, in order, in one write (``Wire.send_many``)."""
        if self.state != self.STATE_OPEN:
            return
        if not self.plain():
            for text in texts:
                self.sendMessage(text.encode())
            return
        payloads = [text.encode() for text in texts]
        self.wrote_at = time.monotonic()
        self.sendData(b"".join([text_frame(p) for p in payloads]))
        n, stats = sum(map(len, payloads)), self.trafficStats
        stats.outgoingWebSocketMessages += len(payloads)
        stats.outgoingWebSocketFrames += len(payloads)
        stats.outgoingOctetsAppLevel += n
        stats.outgoingOctetsWebSocketLevel += n

    def plain(self) -> bool:
        """Whether a text message may be framed here (:func:`text_frame`): nothing of
        autobahn's in play (no compression, fragmenting, masking, frame log or timings,
        nothing queued) on an open socket."""
        return (self.state == self.STATE_OPEN and self._perMessageCompress is None and not self.autoFragmentSize
                and not self.send_queue and not self.logFrames and not self.trackedTimings
                and not self.maskServerFrames)

    def onOpen(self):
        super().onOpen()
        self.wrote_at = time.monotonic()  # the handshake: the server's ping counts from here
        self.check_soon()

    def check_soon(self) -> None:
        """This socket's own check, for when something of :meth:`check_timeouts` may be due
        (:meth:`next_check`), in the process's :class:`CheckWheel`, instead of Daphne's walk
        of every connection every 2 s (``backgammon_site/checks.py``; issue 32)."""
        if not self.checking:
            self.checking = True
            checks_itself = getattr(self.server, "checks_itself", None)
            if checks_itself is not None:
                checks_itself(self)
        (self.wheel or process_wheel()).add(self, self.next_check())

    def next_check(self) -> float:
        """Seconds until Daphne's keepalive ping, its socket timeout or the server's ping may be
        due: at least ``CHECK_MIN``, at most ``CHECK_MAX`` (a wire that starts pinging later is
        looked at within that)."""
        now = time.time()
        due = self.server.ping_interval - (now - self.last_ping)
        if self.server.websocket_timeout >= 0:
            due = min(due, self.server.websocket_timeout - (now - self.socket_opened))
        wire = self.wire
        if wire is not None and wire.every and wire.owner is not None:
            due = min(due, wire.every * self.ping_every - (time.monotonic() - self.wrote_at))
        return min(max(due, self.CHECK_MIN), self.CHECK_MAX)

    def own_check(self) -> None:
        """:meth:`check_timeouts` at this socket's own time, then the next one, while it is open."""
        if self.state != self.STATE_OPEN:
            self.checking = False
            return
        try:
            self.check_timeouts()
        finally:  # a failing check does not end this socket's checks
            if self.state == self.STATE_OPEN:
                self.check_soon()
            else:
                self.checking = False

    def check_timeouts(self):
        """Daphne's checks, then the server's ping of a socket silent for the wire's ``every``
        seconds (spread between 1 and 1.5 times that). An open socket runs them itself
        (:meth:`own_check`); Daphne's walk every 2 s, for one still connecting."""
        super().check_timeouts()
        wire = self.wire
        if (wire is not None and wire.every and self.state == self.STATE_OPEN
                and time.monotonic() - self.wrote_at >= wire.every * self.ping_every):
            text = wire.tick()
            if text is not None:
                self.sendMessage(text.encode())

    def onPing(self, payload):
        self.last_ping = time.time()  # Daphne's clock for its keepalive (``check_timeouts``)
        super().onPing(payload)

    def sendData(self, data, sync=False, chopsize=None):
        """autobahn's ``sendData``, with :func:`eager_write` in its plain case (not chopped,
        nothing queued)."""
        if chopsize or sync or self.send_queue:
            super().sendData(data, sync, chopsize)
            return
        eager_write(self.transport, data)
        if self.state == self.STATE_OPEN:
            self.trafficStats.outgoingOctetsWireLevel += len(data)

    def sendMessage(self, payload, isBinary=False, *args, **kwargs):
        """Send ``payload`` whatever its size: the message limit is for what clients send.

        A text message (every frame of the site) is framed here when :meth:`plain`: one
        header and :meth:`sendData`, without the checks of autobahn's ``sendMessage`` and
        ``sendFrame`` (a few µs a frame, 8 frames a move: issue 32)."""
        self.wrote_at = time.monotonic()
        if not isBinary and not args and not kwargs and type(payload) is bytes and self.plain():
            self.sendData(text_frame(payload))
            n, stats = len(payload), self.trafficStats
            stats.outgoingWebSocketMessages += 1
            stats.outgoingWebSocketFrames += 1
            stats.outgoingOctetsAppLevel += n
            stats.outgoingOctetsWebSocketLevel += n
            return None
        limit, self.maxMessagePayloadSize = self.maxMessagePayloadSize, 0
        try:
            return super().sendMessage(payload, isBinary, *args, **kwargs)
        finally:
            self.maxMessagePayloadSize = limit


class WiredServer(CheckedServer, daphne_server.Server):
    """Daphne's server, giving each websocket's application its protocol's wire (in the
    scope's ``extensions``: Channels' middleware copies the scope but keeps its values), and
    checking only the connections that need it (``backgammon_site/checks.py``)."""

    def create_application(self, protocol, scope):
        wire = getattr(protocol, "wire", None)
        if wire is not None:
            scope = {**scope, "extensions": {**(scope.get("extensions") or {}), EXTENSION: wire}}
        queue = super().create_application(protocol, scope)
        self.watch_application(protocol)
        return queue


class ServeCommand(CommandLineInterface):
    server_class = WiredServer


class ClosingWebSocketFactory(WebSocketFactory):
    """Daphne's factory with autobahn's ``failByDrop`` off: failures close with a code."""

    protocol = KeepaliveWebSocketProtocol

    def resetProtocolOptions(self):
        super().resetProtocolOptions()
        self.failByDrop = False


def tune_gc() -> None:
    """Make full collections of the cyclic garbage collector rare.

    A web process holds a few hundred objects per open socket, and a full collection scans
    all of them with every socket paused: about 0.2 ms per 1000 objects, so 0.4 s with 2000
    sockets. With the default thresholds, objects that outlive two young collections (a
    socket's pending receive, a message waiting for it) pile up fast enough under load to
    force one every 10-20 s. A full collection waits for ``GAMES_GC_FULL_EVERY`` (default
    1000) collections of the middle generation instead of 10; young collections, whose cost
    does not grow with the sockets, are unchanged (issue 16; docs/DEPLOY.md, "Measured
    capacity").
    """
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, int(os.environ.get("GAMES_GC_FULL_EVERY", "1000")))


class GarbageSchedule:
    """A full collection every ``GAMES_GC_FULL_SECONDS`` (default 10), cheap because what was
    alive at the previous one is frozen (``gc.freeze``: left out of every collection).

    :func:`tune_gc` makes count-triggered full collections rare, which left the garbage of
    every request (Django's per-request thread with its database wrapper, the request's
    tasks and their exceptions: reference cycles, freed only by a full collection) to pile
    up: a web process grew by about 1 MB a second under bot-API play (issue 25). Here the
    timer collects it: after each collection the survivors are frozen, so the next one scans
    only what is younger (seconds of garbage and new sockets), not every socket of the
    process. Every ``GAMES_GC_THAW_EVERY``-th time (default 60: every ten minutes) the frozen
    objects are thawed first, so a socket or match that has ended since is collected too;
    only that collection scans everything (0.2 ms per 1000 objects: docs/DEPLOY.md).

    The period is short because a collection pauses every socket of the process for as long
    as it scans: once a minute, the first one after 2000 sockets had connected scanned them
    all at once and paused the process 310-424 ms, and the moves of the next second and a
    half waited (issue 32; docs/DEPLOY.md, "Measured capacity"). Every 10 s each pause is
    a few tens of milliseconds; the total is the same, since each survivor is scanned once
    before it is frozen.
    """

    def __init__(self, seconds: float | None = None, thaw_every: int | None = None):
        self.seconds = float(os.environ.get("GAMES_GC_FULL_SECONDS", "10")) if seconds is None else seconds
        self.thaw_every = int(os.environ.get("GAMES_GC_THAW_EVERY", "60")) if thaw_every is None else thaw_every
        self.runs = 0

    def collect(self) -> int:
        """One scheduled collection; the number of unreachable objects found."""
        self.runs += 1
        if self.thaw_every > 0 and self.runs % self.thaw_every == 0:
            gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        return found

    def start(self, reactor) -> None:
        if self.seconds <= 0:
            return
        from twisted.internet.task import LoopingCall

        self.call = LoopingCall(self.collect)
        self.call.clock = reactor
        self.call.start(self.seconds, now=False)


def profile_to(path: str, reactor) -> None:
    """Profile the event loop's thread (cProfile, in the thread's CPU time: waiting for the
    machine is not counted) until the server stops, then write the statistics to ``path``
    (``GAMES_PROFILE``: to see where a web process's time goes, e.g. under
    ``bench/ws_bench.py``; the database threads are not in it). ``SIGUSR1`` starts it over: what
    came before (start-up, the sockets' connections) is left out of the profile of a steady load."""
    import cProfile
    import signal

    profile = cProfile.Profile(time.thread_time)

    def restart(*_):
        profile.disable()
        profile.clear()
        profile.enable()

    signal.signal(signal.SIGUSR1, lambda *_: reactor.callFromThread(restart))
    reactor.addSystemEventTrigger("before", "shutdown", lambda: (profile.disable(), profile.dump_stats(path)))
    profile.enable()


def main(argv=None) -> None:
    tune_gc()
    from twisted.internet import reactor

    if os.environ.get("GAMES_PROFILE"):
        profile_to(f"{os.environ['GAMES_PROFILE']}.{os.getpid()}", reactor)
    reactor.callWhenRunning(GarbageSchedule().start, reactor)
    daphne_server.WebSocketFactory = ClosingWebSocketFactory  # the name Server.run() builds
    autobahn_protocol.pformat = lazy_pformat  # its per-connection debug line, formatted only if logged
    ServeCommand().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
