"""The buses between processes of the site's channel layer (``games.realtime.layer``).

A group send is delivered to the local members at once and published on a bus; every other
process delivers it to its own members. Two buses:

- :class:`DatagramBus` (``unix:<path>``): datagrams between the processes of one machine (no
  service needed: the embedded default, so ``make run``'s worker reaches the web process's
  sockets);
- :class:`RedisBus` (``redis://...``): Redis publish/subscribe, for processes on several
  machines.

Both are at most once, like every Channels layer; clients catch up from the database
(docs/PROTOCOL.md, "Delivery").
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import socket
import string
import tempfile
import threading
import time

import msgpack

logger = logging.getLogger(__name__)

_ALNUM = string.ascii_letters + string.digits


def rand(n: int) -> str:
    """``n`` random letters and digits (channel and socket names)."""
    return "".join(secrets.choice(_ALNUM) for _ in range(n))


def _pack(data) -> bytes:
    return msgpack.packb(data, use_bin_type=True)


def _unpack(data: bytes):
    return msgpack.unpackb(data, raw=False)


def make_bus(url: str, layer):
    if url.startswith("unix:"):
        return DatagramBus(url[len("unix:"):], layer)
    if url.startswith(("redis://", "rediss://", "unix+redis://")):
        return RedisBus(url, layer)
    raise ValueError(f"Unknown bus {url!r}: use unix:<path> or redis://host:port/db")


# -- the machine-local bus: Unix datagrams ------------------------------------------------------------


class DatagramBus:
    """Every process of one machine binds a datagram socket in one directory; a publish is
    sent to every socket there (each receiver keeps what its groups want). Needs no
    service; the directory is private to the user (mode 0700)."""

    PEERS_TTL = 1.0  # seconds a listing of the directory is reused

    def __init__(self, path: str, layer):
        # Socket paths are limited to ~100 bytes: the sockets live in a short directory named
        # after the configured path, so every process configured alike finds the others.
        digest = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:16]
        self.dir = os.path.join(tempfile.gettempdir(), f"bgbus-{digest}")
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        self.layer = layer
        self.origin = layer.process
        self.me = None
        self.recv_sock = None
        self.send_sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.send_sock.setblocking(False)
        self.lock = threading.Lock()
        self._peers, self._peers_at = [], 0.0
        self.loop = None

    def start(self, loop) -> None:
        self.me = os.path.join(self.dir, f"{os.getpid()}-{rand(4)}.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
        sock.bind(self.me)
        sock.setblocking(False)
        self.recv_sock, self.loop = sock, loop
        loop.add_reader(sock.fileno(), self._read)

    def _read(self) -> None:
        while True:
            try:
                data = self.recv_sock.recv(1 << 20)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            try:
                origin, kind, target, message = _unpack(data)
            except Exception:  # not ours
                continue
            if origin != self.origin:
                self.layer.incoming(kind, target, message)

    async def subscribe(self, group: str) -> None:  # every process receives every publish
        pass

    def unsubscribe(self, group: str) -> None:
        pass

    def _peer_list(self) -> list:
        now = time.monotonic()
        if now - self._peers_at > self.PEERS_TTL:
            try:
                names = os.listdir(self.dir)
            except OSError:
                names = []
            self._peers = [os.path.join(self.dir, n) for n in names if n.endswith(".sock")]
            self._peers_at = now
        return [p for p in self._peers if p != self.me]

    def publish(self, kind: str, target: str, message: dict) -> None:
        data = _pack([self.origin, kind, target, message])
        with self.lock:
            for peer in self._peer_list():
                try:
                    self.send_sock.sendto(data, peer)
                except (ConnectionRefusedError, FileNotFoundError):
                    self._forget(peer)  # a process that died without removing its socket
                except (BlockingIOError, OSError) as exc:  # a full receiver, a message too big
                    logger.warning("bus: could not send to %s (%s)", os.path.basename(peer), exc)

    publish_threadsafe = publish

    def _forget(self, peer: str) -> None:
        try:
            os.unlink(peer)
        except OSError:
            pass
        self._peers_at = 0.0

    def close(self) -> None:
        if self.recv_sock is not None:
            try:
                self.loop.remove_reader(self.recv_sock.fileno())
            except Exception:
                pass
            self.recv_sock.close()
            self.recv_sock = None
            self._forget(self.me)
        self.send_sock.close()


# -- the network bus: Redis publish/subscribe ---------------------------------------------------------


class RedisBus:
    """Redis publish/subscribe: a process subscribes to the groups it has members in and to
    its own channel. Publishing is ordered (one sender task; publishes waiting together go in
    one write) and never blocks the loop; a failed publish is retried once on a fresh
    connection, then dropped. The subscriber reconnects with back-off and subscribes again to
    every group it needs, and pings Redis when it has heard nothing for ``HEALTH`` s, so a
    connection that died silently is replaced within twice that.

    Both speak through a connection of redis-py's own (``Connection``: its packing, its reply
    parser, ``hiredis`` when installed), without its client's pool, retry and pub/sub layers:
    those cost a web process 115 µs of CPU a publish and 221 µs a message received, several
    times the work itself, and a move makes one of each (docs/DEPLOY.md, "Measured capacity").
    A process's own publishes come back to it; they are recognised by their first bytes (the
    process's name) and not unpacked."""

    MAX_PENDING = 10_000
    BATCH = 64  # publishes waiting together go in one round trip, in order
    HEALTH = 10.0  # s of silence on the subscriber's connection before it pings Redis

    def __init__(self, url: str, layer):
        import redis

        self.url, self.layer, self.origin = url, layer, layer.process
        db = redis.connection.parse_url(url).get("db", 0)
        self.prefix = layer.prefix or f"bg{db}"
        self.kwargs = dict(socket_connect_timeout=1.0, socket_keepalive=True, health_check_interval=10,
                           retry_on_timeout=False)
        self.echo = b"\x94" + _pack(self.origin)  # how this process's own publishes begin
        self.groups: set = set()
        self.loop = None
        self.tasks = []
        self.pending = None
        self.conn = None  # the subscriber's connection, while subscribed
        self.ready = asyncio.Event()  # set while subscribed
        self.sync_client = None
        self.sync_lock = threading.Lock()
        self.failures = 0

    def _name(self, kind: str, target: str) -> str:
        """The Redis channel of a group (``g``), or of the process owning a channel (``c``)."""
        if kind == "c":
            target = target.partition("!")[0].rsplit(".", 1)[-1]
        return f"{self.prefix}:{kind}:{target}"

    async def _connect(self):
        """A new connection of redis-py's (the URL's host or Unix socket, password, TLS, db),
        speaking RESP2: a subscriber's messages are plain replies (RESP3 makes them push
        notifications, which redis-py hands to a logging callback first)."""
        import redis.asyncio as aioredis

        pool = aioredis.ConnectionPool.from_url(self.url, socket_connect_timeout=1.0, socket_keepalive=True,
                                                protocol=2)
        conn = pool.make_connection()
        await conn.connect()
        return conn

    # -- publishing --------------------------------------------------------------------------------
    def publish(self, kind: str, target: str, message: dict) -> None:
        if self.pending is None:
            self.publish_threadsafe(kind, target, message)
            return
        if self.pending.qsize() >= self.MAX_PENDING:
            self.pending.get_nowait()  # drop the oldest: clients catch up from the database
        self.pending.put_nowait((self._name(kind, target), _pack([self.origin, kind, target, message])))

    async def _sender(self) -> None:
        conn = None
        while True:
            batch = [await self.pending.get()]
            while not self.pending.empty() and len(batch) < self.BATCH:
                batch.append(self.pending.get_nowait())
            for attempt in (1, 2):
                try:
                    if conn is None:
                        conn = await self._connect()
                    await _publish(conn, batch)
                    self._ok()
                    break
                except Exception as exc:  # a restarted Redis, a dead connection
                    await _drop(conn)
                    conn = None
                    if attempt == 2:
                        self._failed("publish", exc)

    def publish_threadsafe(self, kind: str, target: str, message: dict) -> None:
        """Publish from a thread without an event loop (a worker process)."""
        import redis

        data = _pack([self.origin, kind, target, message])
        with self.sync_lock:
            for attempt in (1, 2):
                try:
                    if self.sync_client is None:
                        self.sync_client = redis.Redis.from_url(self.url, **self.kwargs)
                    self.sync_client.publish(self._name(kind, target), data)
                    self._ok()
                    return
                except Exception as exc:
                    try:
                        self.sync_client.close()
                    except Exception:
                        pass
                    self.sync_client = None
                    if attempt == 2:
                        self._failed("publish", exc)

    # -- subscribing -------------------------------------------------------------------------------
    def start(self, loop) -> None:
        self.loop = loop
        self.pending = asyncio.Queue()
        self.tasks = [loop.create_task(self._sender()), loop.create_task(self._subscriber())]

    async def subscribe(self, group: str) -> None:
        """Awaited, so that a socket joining a group hears every publish made after it read
        the group's state (a presence notice from another process, say)."""
        self.groups.add(group)
        if self.conn is None:
            try:  # the subscriber is (re)connecting
                await asyncio.wait_for(self.ready.wait(), timeout=2.0)
            except asyncio.TimeoutError:  # Redis is down: the socket goes on; the idle ping catches up
                return
        # Always ask: a subscriber that connected while we waited may have listed the groups
        # before this one was added (subscribing twice is harmless).
        if self.conn is not None:
            await self._change("SUBSCRIBE", self._name("g", group))

    def unsubscribe(self, group: str) -> None:
        self.groups.discard(group)
        if self.conn is not None:
            self.loop.create_task(self._change("UNSUBSCRIBE", self._name("g", group)))

    async def _change(self, verb: str, channel: str) -> None:
        """Sent on the subscriber's connection while it reads; Redis's answer comes to the
        reader, which ignores it."""
        conn = self.conn
        if conn is None or not conn.is_connected:  # (re)connecting: it subscribes to every group
            return
        try:
            await asyncio.wait_for(conn.send_command(verb, channel, check_health=False), timeout=2.0)
        except Exception:  # the subscriber reconnects and subscribes again
            pass

    async def _subscriber(self) -> None:
        delay = 0.1
        while True:
            conn = None
            try:
                conn = await self._connect()
                await conn.send_command("SUBSCRIBE", self._name("c", f"x.{self.origin}!"),
                                        *[self._name("g", g) for g in self.groups], check_health=False)
                self.conn = conn
                self.ready.set()
                if self.failures:
                    logger.warning("bus: Redis is back; subscribed again to %d groups", len(self.groups))
                self._ok()
                delay = 0.1
                await self._read(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.conn = None
                self.ready.clear()
                self._failed("subscribe", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            finally:
                self.conn = None
                self.ready.clear()
                await _drop(conn)

    async def _read(self, conn) -> None:
        """Deliver what comes on the subscriber's connection until it fails; after ``HEALTH``
        s of silence ping Redis, and give up on a connection that stays silent as long again."""
        pinged = False
        echo, incoming = self.echo, self.layer.incoming
        while True:
            reply = await conn.read_response(timeout=self.HEALTH)  # None: nothing came in time
            if reply is None:
                if pinged:
                    raise ConnectionError("Redis did not answer a ping")
                await conn.send_command("PING", check_health=False)
                pinged = True
                continue
            pinged = False
            if type(reply) is not list or len(reply) != 3 or reply[0] != b"message":
                continue  # a (un)subscription's answer, or a ping's
            data = reply[2]
            if data.startswith(echo):
                continue  # our own publish, delivered to our members when it was made
            try:
                origin, kind, target, message = _unpack(data)
            except Exception:
                continue
            incoming(kind, target, message)

    def _ok(self) -> None:
        self.failures = 0

    def _failed(self, what: str, exc: Exception) -> None:
        self.failures += 1
        if self.failures in (1, 10) or self.failures % 100 == 0:
            logger.warning("bus: Redis %s failed (%s: %s); %d failures in a row", what, type(exc).__name__,
                           exc, self.failures)

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []
        if self.sync_client is not None:
            try:
                self.sync_client.close()
            except Exception:
                pass


async def _publish(conn, batch: list) -> None:
    """Publish ``[(channel, data), ...]`` in order: the commands in one write, then their
    answers (the number of subscribers each reached, unused), so a burst costs one round trip."""
    await conn.send_packed_command(conn.pack_commands([("PUBLISH", channel, data) for channel, data in batch]),
                                   check_health=False)
    for _ in batch:
        if await conn.read_response(timeout=5.0) is None:  # no answer in time: a dead connection
            raise ConnectionError("Redis did not answer a publish")


async def _drop(conn) -> None:
    if conn is not None:
        try:
            await conn.disconnect(nowait=True)
        except Exception:
            pass
