"""backgammon_site.serve.eager_write: a frame goes straight to a socket with nothing waiting,
and through Twisted's buffered write otherwise, in order (issue 16)."""

import socket
from collections import deque
from types import SimpleNamespace

import pytest
from twisted.internet import tcp

from backgammon_site.serve import KeepaliveWebSocketProtocol, eager_write


@pytest.fixture
def pair():
    """A Twisted TCP server transport on one end of a socket pair (its loop registration
    recorded, not made), and the peer's end."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.settimeout(5)
    transport = tcp.Server.__new__(tcp.Server)
    transport.socket, transport.connected, transport.producer = ours, 1, None
    transport._tempDataBuffer, transport._tempDataLen = [], 0
    transport.watched = 0

    def start_writing():
        transport.watched += 1

    transport.startWriting = start_writing
    yield transport, peer
    ours.close()
    peer.close()


def test_nothing_waiting_the_frame_is_sent_at_once(pair):
    transport, peer = pair
    eager_write(transport, b"frame one")
    assert peer.recv(100) == b"frame one"
    assert transport.watched == 0 and transport._tempDataLen == 0


def test_something_waiting_the_frame_queues_behind_it(pair):
    transport, peer = pair
    transport.write(b"first ")  # buffered, as Twisted buffers
    eager_write(transport, b"second")
    assert transport._tempDataBuffer == [b"first ", b"second"] and transport.watched == 2
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)  # nothing jumped the queue


def test_what_a_full_socket_does_not_take_is_buffered_in_order(pair):
    transport, peer = pair
    try:
        while True:
            transport.socket.send(b"x" * 65536)
    except BlockingIOError:
        pass
    eager_write(transport, b"late frame")
    assert transport._tempDataBuffer == [b"late frame"] and transport.watched == 1


def test_a_transport_that_is_not_plain_tcp_gets_a_plain_write():
    written = []
    tls_like = SimpleNamespace(write=written.append)
    eager_write(tls_like, b"frame")
    assert written == [b"frame"]


def test_the_websocket_protocol_sends_its_frames_eagerly(pair):
    transport, peer = pair
    protocol = KeepaliveWebSocketProtocol.__new__(KeepaliveWebSocketProtocol)
    protocol.transport, protocol.send_queue = transport, deque()
    protocol.state = KeepaliveWebSocketProtocol.STATE_OPEN
    protocol.trafficStats = SimpleNamespace(outgoingOctetsWireLevel=0)
    protocol.sendData(b"\x81\x05hello")
    assert peer.recv(100) == b"\x81\x05hello"
    assert transport.watched == 0 and protocol.trafficStats.outgoingOctetsWireLevel == 7


def test_the_twisted_internals_it_reads_are_there():
    """eager_write reads a TCP transport's write buffer (Twisted pinned in requirements.txt):
    an upgrade that renames it fails here, not in every frame sent."""
    transport = tcp.Server.__new__(tcp.Server)
    tcp.Connection.__init__(transport, socket.socket(), None, reactor=object())
    try:
        assert transport._tempDataLen == 0 and transport._tempDataBuffer == []
        assert transport.dataBuffer == b"" and transport.offset == 0
        assert not transport._writeDisconnected and not transport.disconnecting
        assert transport.socket is not None
    finally:
        transport.socket.close()


# -- the site's own framing of a text message (issue 32) --------------------------------------------------


def _read_frames(data: bytes) -> list:
    """The (first byte, payload) of each server frame in ``data`` (RFC 6455, 5.2: unmasked)."""
    out = []
    while data:
        head, size, at = data[0], data[1] & 0x7F, 2
        assert data[1] & 0x80 == 0  # a server never masks
        if size == 126:
            size, at = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, at = int.from_bytes(data[2:10], "big"), 10
        out.append((head, data[at:at + size]))
        assert len(data) >= at + size
        data = data[at + size:]
    return out


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 200_000])
def test_a_text_frame_is_a_whole_unmasked_text_message_of_any_length(size):
    from backgammon_site.serve import text_frame

    payload = bytes(i % 251 for i in range(size))
    assert _read_frames(text_frame(payload)) == [(0x81, payload)]


def _plain_protocol(transport):
    from autobahn.websocket.protocol import TrafficStats

    protocol = KeepaliveWebSocketProtocol.__new__(KeepaliveWebSocketProtocol)
    protocol.transport, protocol.send_queue = transport, deque()
    protocol.state = KeepaliveWebSocketProtocol.STATE_OPEN
    protocol.trafficStats = TrafficStats()
    protocol._perMessageCompress = None
    protocol.autoFragmentSize = protocol.logFrames = protocol.trackedTimings = protocol.maskServerFrames = 0
    return protocol


def test_a_batch_of_frames_is_one_write_in_order_and_a_message_framed_here_reads_as_autobahns(pair):
    transport, peer = pair
    protocol = _plain_protocol(transport)
    writes = []
    send = transport.socket.send
    transport.socket = SimpleNamespace(send=lambda data: writes.append(data) or send(data))
    protocol.send_texts(['{"t": "move", "v": 6}', '{"t": "roll", "v": 7}' + " " * 300])
    protocol.sendMessage(b'{"t": "pong"}')
    assert len(writes) == 2  # the batch in one system call, then the pong
    got = _read_frames(peer.recv(100_000))
    assert got == [(0x81, b'{"t": "move", "v": 6}'), (0x81, b'{"t": "roll", "v": 7}' + b" " * 300),
                   (0x81, b'{"t": "pong"}')]
    assert protocol.trafficStats.outgoingWebSocketMessages == 3

    autobahn = _plain_protocol(SimpleNamespace(write=writes.append))
    autobahn.factory, autobahn.maxMessagePayloadSize = SimpleNamespace(isServer=True), 0
    autobahn.logOctets = False
    autobahn.log = SimpleNamespace(debug=lambda *a, **k: None)
    autobahn.plain = lambda: False  # autobahn's own path
    autobahn.sendMessage(b'{"t": "pong"}')
    assert writes[-1] == b"\x81\x0d" + b'{"t": "pong"}' == writes[1]


def test_once_closing_a_batch_is_not_sent(pair):
    transport, peer = pair
    protocol = _plain_protocol(transport)
    protocol.state = KeepaliveWebSocketProtocol.STATE_CLOSING
    protocol.send_texts(['{"t": "move"}', '{"t": "roll"}'])
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)


def test_autobahns_option_list_is_formatted_only_when_its_line_is_written():
    import pprint

    from backgammon_site.serve import lazy_pformat

    options = [("autoPingInterval", 0, "Factory")] * 3
    formatted = lazy_pformat(options)
    assert not isinstance(formatted, str)  # nothing worked out yet
    assert str(formatted) == pprint.pformat(options) == "{}".format(formatted)
    assert lazy_pformat({"a": 1}) == pprint.pformat({"a": 1})  # anything else: text at once


def test_only_a_message_counts_as_written_for_the_servers_ping_not_a_protocol_ping(pair):
    """A browser's page never sees protocol pings and pongs: the server's own ping (a message)
    stays due after Daphne's keepalive ping, or the page hears nothing for too long and pings."""
    transport, peer = pair
    protocol = _plain_protocol(transport)
    protocol.wrote_at = 0.0
    protocol.sendData(b"\x89\x00")  # a protocol ping, as autobahn frames it
    assert protocol.wrote_at == 0.0
    protocol.sendMessage(b'{"t": "pong"}')
    assert protocol.wrote_at > 0.0
    protocol.wrote_at = 0.0
    protocol.send_texts(['{"t": "move"}'])
    assert protocol.wrote_at > 0.0
