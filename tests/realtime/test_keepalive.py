"""backgammon_site.serve: Daphne's keepalive ping is not sent to a client that pings us
(issue 16), and still is to a silent one; checked against Daphne's own ``check_timeouts``."""

import time
from types import SimpleNamespace

from backgammon_site.serve import ClosingWebSocketFactory, KeepaliveWebSocketProtocol


def _open_socket(silent_for: float):
    protocol = KeepaliveWebSocketProtocol.__new__(KeepaliveWebSocketProtocol)
    protocol.server = SimpleNamespace(websocket_timeout=-1, websocket_connect_timeout=5, ping_interval=20)
    protocol.state = KeepaliveWebSocketProtocol.STATE_OPEN
    protocol.socket_opened = protocol.last_ping = time.time() - silent_for
    protocol.client_addr = None
    protocol.pings, protocol.pongs = [], []
    protocol._sendAutoPing = lambda: protocol.pings.append("ping")
    protocol.sendPong = lambda payload=None: protocol.pongs.append(payload)
    return protocol


def test_the_factory_builds_our_protocol():
    assert ClosingWebSocketFactory.protocol is KeepaliveWebSocketProtocol


def test_a_silent_client_is_pinged():
    protocol = _open_socket(silent_for=25)
    protocol.check_timeouts()
    assert protocol.pings == ["ping"]


def test_a_client_that_pinged_us_is_not_pinged_and_gets_its_pong():
    protocol = _open_socket(silent_for=25)
    protocol.onPing(b"hi")
    protocol.check_timeouts()
    assert protocol.pings == [] and protocol.pongs == [b"hi"]
    protocol.last_ping -= 21  # silent since: pinged again
    protocol.check_timeouts()
    assert protocol.pings == ["ping"]
