"""games.realtime.layer.FanoutLayer against the Channels layer contract (the cases Channels runs
against its own in-memory layer: send/receive, capacity, process-local channels, ordering,
groups, a full member in a group send, flush, name validation), then what ours adds: the
bus between two layers (Unix datagrams; Redis publish/subscribe), and a fan-out whose work
is the group's size whatever else is connected (issue 16: counted, never timed)."""

import asyncio

import pytest
import pytest_asyncio
from channels.exceptions import ChannelFull

from games.realtime.layer import FanoutLayer
from tests.support import require_redis

pytestmark = pytest.mark.asyncio

RECEIVE_DEADLINE = 5.0  # seconds a message that must arrive may take (a deadline, not a timing)
SILENCE = 0.3  # how long a channel that must stay empty is watched


@pytest_asyncio.fixture
async def layer():
    layer = FanoutLayer(capacity=3)
    yield layer
    await layer.flush()
    await layer.close()


async def receive(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), RECEIVE_DEADLINE)


async def assert_empty(layer, channel):
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), SILENCE)


# -- the Channels contract ------------------------------------------------------------------------------


async def test_send_then_receive(layer):
    await layer.send("test-channel-1", {"type": "test.message", "text": "Ahoy-hoy!"})
    message = await receive(layer, "test-channel-1")
    assert message == {"type": "test.message", "text": "Ahoy-hoy!"}


async def test_a_full_channel_refuses_a_send(layer):
    for _ in range(3):
        await layer.send("test-channel-1", {"type": "test.message"})
    with pytest.raises(ChannelFull):
        await layer.send("test-channel-1", {"type": "test.message"})


async def test_process_local_channel(layer):
    name = await layer.new_channel()
    assert "!" in name
    await layer.send(name, {"type": "test.message", "text": "Local only please"})
    assert (await receive(layer, name))["text"] == "Local only please"


async def test_messages_keep_their_order(layer):
    for n in (1, 2, 3):
        await layer.send("test-channel-3", {"type": f"message.{n}"})
    assert [(await receive(layer, "test-channel-3"))["type"] for _ in range(3)] == [
        "message.1", "message.2", "message.3"]


async def test_groups_send_to_members_only(layer):
    for n in (1, 2, 3):
        await layer.group_add("test-group", f"test-gr-chan-{n}")
    await layer.group_discard("test-group", "test-gr-chan-2")
    await layer.group_send("test-group", {"type": "message.1"})
    assert (await receive(layer, "test-gr-chan-1"))["type"] == "message.1"
    assert (await receive(layer, "test-gr-chan-3"))["type"] == "message.1"
    await assert_empty(layer, "test-gr-chan-2")


async def test_a_group_send_skips_a_full_member(layer):
    await layer.group_add("test-group", "test-gr-chan-1")
    await layer.group_add("test-group", "test-gr-chan-2")
    await layer.send("test-gr-chan-1", {"type": "x"})
    await layer.send("test-gr-chan-1", {"type": "x"})
    await layer.send("test-gr-chan-1", {"type": "x"})
    for _ in range(5):  # never raises: a full member just misses messages
        await layer.group_send("test-group", {"type": "message.1"})
    assert layer.dropped == 5 + 2  # chan-1 missed all five, chan-2 the last two
    assert (await receive(layer, "test-gr-chan-2"))["type"] == "message.1"


async def test_flush_forgets_channels_and_groups(layer):
    await layer.group_add("test-group", "test-gr-chan-1")
    await layer.send("test-channel-1", {"type": "x"})
    await layer.flush()
    await layer.group_send("test-group", {"type": "message.1"})
    await assert_empty(layer, "test-gr-chan-1")
    await assert_empty(layer, "test-channel-1")


@pytest.mark.parametrize("name", ["", "a" * 200, "bad channel", 42])
async def test_invalid_names_are_refused(layer, name):
    with pytest.raises(TypeError):
        await layer.send(name, {"type": "x"})
    with pytest.raises(TypeError):
        await layer.group_add(name, "ok-channel")


async def test_a_message_must_be_a_dict(layer):
    with pytest.raises(AssertionError):
        await layer.send("test-channel-1", ["not", "a", "dict"])


async def test_a_channel_left_by_every_group_is_forgotten(layer):
    await layer.group_add("g1", "chan")
    await layer.group_add("g2", "chan")
    await layer.group_discard("g1", "chan")
    assert "chan" in layer.member_of
    await layer.group_discard("g2", "chan")
    assert "chan" not in layer.member_of and "chan" not in layer.channels
    assert layer.groups == {}


# -- between processes: the bus -------------------------------------------------------------------------


async def _two_layers_share_a_group(bus):
    one, two = FanoutLayer(bus=bus), FanoutLayer(bus=bus)
    try:
        a, b = await one.new_channel(), await two.new_channel()
        await one.group_add("match.1", a)
        await two.group_add("match.1", b)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RECEIVE_DEADLINE
        got = None
        while got is None and loop.time() < deadline:  # the subscription may take a moment
            await one.group_send("match.1", {"type": "hello", "n": 1})
            try:
                got = await asyncio.wait_for(two.receive(b), 0.2)
            except asyncio.TimeoutError:
                pass
        assert got == {"type": "hello", "n": 1}
        assert (await receive(one, a))["type"] == "hello"  # the sender's own members too
        await one.send(b, {"type": "direct"})  # a channel of the other process
        assert (await receive(two, b))["type"] == "direct"
    finally:
        await one.close()
        await two.close()


async def test_the_datagram_bus_carries_group_sends_between_layers(tmp_path):
    await _two_layers_share_a_group(f"unix:{tmp_path / 'bus'}")


@pytest.mark.redis
async def test_the_redis_bus_carries_group_sends_between_layers():
    await _two_layers_share_a_group(require_redis())


@pytest.mark.redis
async def test_a_burst_on_the_redis_bus_goes_out_in_pipelines_and_arrives_in_order(monkeypatch):
    """Publishes that wait together are sent in one round trip (a pipeline), in order."""
    from games.realtime import buses

    sizes = []
    publish = buses._publish

    async def counted(client, batch):
        sizes.append(len(batch))
        await publish(client, batch)

    monkeypatch.setattr(buses, "_publish", counted)
    one, two = FanoutLayer(bus=require_redis(), capacity=1000), FanoutLayer(bus=require_redis(), capacity=1000)
    try:
        a, b = await one.new_channel(), await two.new_channel()
        await one.group_add("match.2", a)
        await two.group_add("match.2", b)
        await _until_heard(one, two, b, "match.2")
        sizes.clear()
        for n in range(200):  # sent without yielding: they wait together for the sender
            await one.group_send("match.2", {"type": "burst", "n": n})
        got = [(await receive(two, b))["n"] for _ in range(200)]
        assert got == list(range(200))
        assert sum(sizes) == 200 and max(sizes) > 1
    finally:
        await one.close()
        await two.close()


class SilentProxy:
    """A TCP proxy to Redis that can go silent: ``freeze()`` stops forwarding on every
    connection open at that moment, both ways, without closing it (a link cut, or a server
    that hangs); connections opened later pass."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.frozen: set = set()
        self.connections = []
        self.server = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        conn = object()
        self.connections.append(conn)

        async def pipe(src, dst):
            while True:
                data = await src.read(65536)
                if not data:
                    break
                if conn in self.frozen:
                    continue  # swallowed: the other side hears nothing, and nothing closes
                dst.write(data)
                await dst.drain()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)

    def freeze(self) -> int:
        self.frozen.update(self.connections)
        return len(self.frozen)

    async def close(self):
        self.server.close()


@pytest.mark.redis
async def test_a_subscriber_whose_redis_goes_silent_connects_again(monkeypatch):
    """The subscriber pings Redis after ``HEALTH`` s of silence and gives up on a connection
    that stays silent as long again; it connects anew, subscribes to its groups again and the
    messages flow. A sender's own members get its group send once (its own publish, coming
    back from Redis, is recognised and dropped)."""
    from urllib.parse import urlparse

    from games.realtime import buses

    monkeypatch.setattr(buses.RedisBus, "HEALTH", 0.3)
    url = urlparse(require_redis())
    proxy = SilentProxy(url.hostname, url.port or 6379)
    port = await proxy.start()
    silent_bus = f"redis://127.0.0.1:{port}{url.path}"
    one, two = FanoutLayer(bus=require_redis()), FanoutLayer(bus=silent_bus)
    try:
        a, b = await one.new_channel(), await two.new_channel()
        await one.group_add("match.3", a)
        await two.group_add("match.3", b)
        await _until_heard(one, two, b, "match.3")
        while True:  # the sender's own copies of those pings
            try:
                await asyncio.wait_for(one.receive(a), SILENCE)
            except asyncio.TimeoutError:
                break
        await one.group_send("match.3", {"type": "hello"})
        assert (await receive(one, a))["type"] == "hello"
        await assert_empty(one, a)  # once: not again when its publish comes back
        assert (await receive(two, b))["type"] == "hello"

        assert proxy.freeze() >= 1  # every connection of the second layer's bus goes silent
        await one.group_send("match.3", {"type": "lost"})  # at most once: this one may be lost
        await _until_heard(one, two, b, "match.3")  # heard again: it connected anew
        await one.group_send("match.3", {"type": "after"})
        got = await receive(two, b)
        while got["type"] in ("ping", "lost"):
            got = await receive(two, b)
        assert got == {"type": "after"}
    finally:
        await one.close()
        await two.close()
        await proxy.close()


async def _until_heard(one, two, channel, group):
    """Send pings until the other layer hears one (its subscription may take a moment); drain."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RECEIVE_DEADLINE
    while loop.time() < deadline:
        await one.group_send(group, {"type": "ping"})
        try:
            await asyncio.wait_for(two.receive(channel), 0.2)
            break
        except asyncio.TimeoutError:
            pass
    else:
        raise AssertionError("the other layer never heard the group")
    while True:  # later pings still on their way
        try:
            await asyncio.wait_for(two.receive(channel), SILENCE)
        except asyncio.TimeoutError:
            return


# -- the cost of a fan-out --------------------------------------------------------------------------------


class CountingDict(dict):
    """A dict that counts every walk over it (``values``, ``items``, ``keys``, iteration)."""

    walks = 0

    def _walked(self):
        type(self).walks += 1

    def values(self):
        self._walked()
        return super().values()

    def items(self):
        self._walked()
        return super().items()

    def keys(self):
        self._walked()
        return super().keys()

    def __iter__(self):
        self._walked()
        return super().__iter__()


async def _work_of_one_move(others: int) -> tuple:
    """Connect ``others`` unrelated sockets in groups of four, then send one game's event to
    its four sockets, each of which receives it: returns (queues touched by the send, walks
    over every group or channel by the send and the four receives)."""
    layer = FanoutLayer()
    for i in range(others):
        await layer.group_add(f"match.{1000 + i // 4}", await layer.new_channel())
    ours = [await layer.new_channel() for _ in range(4)]
    for name in ours:
        await layer.group_add("match.1", name)
    touched = []
    queue_of = layer._queue
    layer._queue = lambda channel: touched.append(channel) or queue_of(channel)
    CountingDict.walks = 0
    layer.groups = CountingDict(layer.groups)
    layer.channels = CountingDict(layer.channels)
    if hasattr(layer, "member_of"):
        layer.member_of = CountingDict(layer.member_of)
    await layer.group_send("match.1", {"type": "match.events"})
    for name in ours:
        assert (await receive(layer, name))["type"] == "match.events"
    await layer.close()
    return len(touched), CountingDict.walks


async def test_a_group_send_touches_only_its_group_however_many_sockets_are_connected():
    small, large = await _work_of_one_move(100), await _work_of_one_move(2000)
    assert small == large == (4 + 4, 0)  # 4 puts, 4 receives; no walk over all groups or channels


async def test_pending_counts_what_waits_for_a_receiver(layer):
    """The delivery check (games.realtime.delivery) leaves a socket with messages waiting alone."""
    assert layer.pending("test-channel-1") == 0
    await layer.send("test-channel-1", {"type": "x"})
    await layer.send("test-channel-1", {"type": "y"})
    assert layer.pending("test-channel-1") == 2
    await receive(layer, "test-channel-1")
    assert layer.pending("test-channel-1") == 1
