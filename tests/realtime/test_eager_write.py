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
