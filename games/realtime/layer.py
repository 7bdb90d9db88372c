"""The site's channel layer: groups kept in each process, a bus between processes.

:class:`FanoutLayer` implements the Channels layer contract (``send``, ``receive``,
``new_channel``, ``group_add``, ``group_discard``, ``group_send``, ``flush``; tested in
``tests/realtime/test_layer_contract.py`` against the same cases as Channels' own
in-memory layer). Two things differ from the layers Channels ships:

* **Cost.** A group send touches only that group's members (Channels' in-memory layer
  scans every channel and group on every message), and messages are not copied per
  receiver: they are treated as read-only.
* **Processes.** A group send is delivered to the local members at once and published on
  a *bus*; every other process delivers it to its own members. A process subscribes on
  the bus only to groups it has members in. Two buses (``games.realtime.buses``):

  - ``unix:<path>``: datagrams between the processes of one machine (no service needed:
    the embedded default, so ``make run``'s worker reaches the web process's sockets);
  - ``redis://...``: Redis publish/subscribe, for processes on several machines.

  The bus is at most once, like every Channels layer. When Redis goes away the layer
  keeps delivering locally, drops what it cannot publish, reconnects with back-off and
  re-subscribes; the game sockets' idle ping and the server's delivery check read the
  database and resend whatever was lost (docs/PROTOCOL.md, "Delivery").

Configure with ``CHANNEL_LAYERS = {"default": {"BACKEND": "games.realtime.layer.FanoutLayer",
"CONFIG": {"bus": "redis://127.0.0.1:6379/0", "capacity": 1000, "expiry": 60}}}``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import threading
import time

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

from games.realtime.buses import make_bus, rand

logger = logging.getLogger(__name__)

class FanoutLayer(BaseChannelLayer):
    """In-process groups with per-group fan-out, plus an optional bus to other processes."""

    extensions = ["groups", "flush"]

    def __init__(self, expiry=60, capacity=1000, channel_capacity=None, bus=None, prefix=None, **kwargs):
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        host = re.sub(r"[^A-Za-z0-9\-]", "-", socket.gethostname())[:20]
        self.process = f"{host}-{os.getpid()}-{rand(6)}"  # this process, in channel names
        self.bus_url, self.prefix = bus, prefix
        self.bus = None
        self.loop = self.loop_thread = None
        self.channels: dict = {}  # channel name -> asyncio.Queue
        self.received: dict = {}  # channel name -> monotonic time its receiver last took a message
        self.groups: dict = {}  # group -> {channel name: None}, in joining order
        self.member_of: dict = {}  # channel name -> set of its groups (no scan of every group)
        self.dropped = 0  # messages a full channel could not take (counted, logged now and then)

    # -- the loop this layer serves --------------------------------------------------------------
    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is self.loop:
            return
        # A new event loop (a test's, or the first one): queues of an old loop cannot be used.
        self._forget_all()
        if self.bus is not None:
            self.bus.close()
        self.loop, self.loop_thread = loop, threading.get_ident()
        self.bus = make_bus(self.bus_url, self) if self.bus_url else None
        if self.bus is not None:
            self.bus.start(loop)

    def _queue(self, channel: str) -> asyncio.Queue:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    def _is_local(self, channel: str) -> bool:
        head, bang, _ = channel.partition("!")
        return not bang or head.endswith(self.process)

    # -- the Channels contract ---------------------------------------------------------------------
    async def new_channel(self, prefix="specific") -> str:
        self._bind()
        return f"{prefix}.{self.process}!{rand(12)}"

    async def send(self, channel: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        self._bind()
        if self._is_local(channel):
            try:
                self._queue(channel).put_nowait(message)
            except asyncio.QueueFull:
                raise ChannelFull(channel) from None
        elif self.bus is not None:
            self.bus.publish("c", channel, message)

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        self._bind()
        queue = self._queue(channel)
        try:
            return await queue.get()
        finally:
            self.received[channel] = time.monotonic()
            if queue.empty() and self.channels.get(channel) is queue and not self._in_groups(channel):
                self.channels.pop(channel, None)
                self.received.pop(channel, None)

    def pending(self, channel: str) -> int:
        """Messages waiting for ``channel``'s receiver (in flight, not lost)."""
        queue = self.channels.get(channel)
        return queue.qsize() if queue is not None else 0

    def _in_groups(self, channel: str) -> bool:
        return channel in self.member_of

    def _forget_all(self) -> None:
        self.channels, self.received, self.groups, self.member_of = {}, {}, {}, {}

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        self._bind()
        members = self.groups.get(group)
        if members is None:
            members = self.groups[group] = {}
            if self.bus is not None:
                await self.bus.subscribe(group)  # subscribed before the caller reads the group's state
        members[channel] = None
        self.member_of.setdefault(channel, set()).add(group)
        self.received.setdefault(channel, time.monotonic())

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        self._bind()
        self._discard(group, channel)
        queue = self.channels.get(channel)
        if queue is not None and queue.empty() and not self._in_groups(channel):
            self.channels.pop(channel, None)
            self.received.pop(channel, None)

    def _discard(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is None:
            return
        members.pop(channel, None)
        joined = self.member_of.get(channel)
        if joined is not None:
            joined.discard(group)
            if not joined:
                del self.member_of[channel]
        if not members:
            del self.groups[group]
            if self.bus is not None:
                self.bus.unsubscribe(group)

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._bind()
        self.deliver(group, message)
        if self.bus is not None:
            self.bus.publish("g", group, message)

    async def flush(self) -> None:
        self._forget_all()

    async def close(self) -> None:
        if self.bus is not None:
            self.bus.close()
            self.bus = None

    # -- delivery ----------------------------------------------------------------------------------
    def deliver(self, group: str, message: dict) -> None:
        """Put ``message`` on every local member of ``group`` (in the loop's thread). A member
        whose queue is full and who has not received for ``expiry`` seconds is dead: dropped
        from its groups, as Channels' layers do."""
        members = self.groups.get(group)
        if not members:
            return
        now = time.monotonic()
        for channel in list(members):
            try:
                self._queue(channel).put_nowait(message)
            except asyncio.QueueFull:
                self.dropped += 1
                if self.dropped % 100 == 1:
                    logger.warning("channel %s is full: dropped a message for %s (%d dropped so far)",
                                   channel, group, self.dropped)
                if now - self.received.get(channel, now) > self.expiry:
                    for name in list(self.member_of.get(channel, ())):
                        self._discard(name, channel)
                    self.channels.pop(channel, None)
                    self.received.pop(channel, None)

    def incoming(self, kind: str, target: str, message: dict) -> None:
        """A message from another process, in the loop's thread."""
        if kind == "g":
            self.deliver(target, message)
        elif kind == "c" and self._is_local(target):
            try:
                self._queue(target).put_nowait(message)
            except asyncio.QueueFull:
                self.dropped += 1

    def group_send_threadsafe(self, group: str, message: dict) -> None:
        """``group_send`` from any thread, returning at once (the committing thread calls
        this: the database thread, or the loop's own thread when ``games.db.calls`` runs the
        call there; so does a worker process, which has no event loop: it only publishes)."""
        loop = self.loop
        if loop is not None and not loop.is_closed() and loop.is_running():
            if threading.get_ident() == self.loop_thread:  # a database call run in the loop's thread
                loop.call_soon(self._send_in_loop, group, message)
            else:
                loop.call_soon_threadsafe(self._send_in_loop, group, message)
            return
        bus = self.bus or self._thread_bus()
        if bus is not None:
            bus.publish_threadsafe("g", group, message)

    def _send_in_loop(self, group: str, message: dict) -> None:
        self.deliver(group, message)
        if self.bus is not None:
            self.bus.publish("g", group, message)

    _sync_bus = None

    def _thread_bus(self):
        """A publish-only bus for a process without an event loop (a worker)."""
        if self._sync_bus is None and self.bus_url:
            self._sync_bus = make_bus(self.bus_url, self)
        return self._sync_bus
