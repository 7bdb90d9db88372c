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


# -- the wire (issue 32): idle pings answered here, and the server's own ping ---------------------------


class Owner:
    """A consumer attached to the wire: at version ``sent``, behind below it."""

    def __init__(self, sent):
        self.sent = sent

    def quick_pong(self, version, game):
        return None if type(version) is int and version < self.sent else self.pong_text()

    def pong_text(self):
        return '{"t": "pong", "v": null, "d": {"v": %d}}' % self.sent


def _wired(silent_for: float = 0.0, sent: int = 5):
    from backgammon_site.serve import Wire

    protocol = _open_socket(silent_for)
    protocol.muted = False
    protocol.wire = Wire()
    protocol.wire.owner, protocol.wire.every = Owner(sent), 5.0
    protocol.ping_every = 1.0
    protocol.sent, protocol.queued = [], []
    protocol.sendMessage = lambda payload, *a, **k: protocol.sent.append(payload)
    protocol.application_queue = SimpleNamespace(put_nowait=protocol.queued.append)
    protocol.wrote_at = time.monotonic()
    return protocol


def test_an_idle_ping_that_misses_nothing_is_answered_by_the_protocol_layer():
    protocol = _wired(silent_for=25)
    protocol.onMessage(b'{"t": "ping", "d": {}, "v": 5, "game": 3}', False)
    assert protocol.sent == [b'{"t": "pong", "v": null, "d": {"v": 5}}'] and protocol.queued == []
    protocol.check_timeouts()
    assert protocol.pings == []  # heard from: no keepalive ping


def test_a_ping_from_behind_and_any_other_message_go_to_the_application():
    protocol = _wired()
    messages = [b'{"t": "ping", "d": {}, "v": 4}', b'{"t": "move", "d": {}, "v": 5}', b'not json "ping"',
                b'["ping"]', b'{"t": "ping", "pad": "' + b"x" * 300 + b'"}']
    for payload in messages:
        protocol.onMessage(payload, False)
    assert protocol.sent == []
    assert [m["text"].encode() for m in protocol.queued] == messages


def test_nothing_is_answered_before_a_consumer_attaches_or_after_it_leaves():
    protocol = _wired()
    protocol.wire.owner = None
    protocol.onMessage(b'{"t": "ping", "v": 5}', False)
    protocol.wrote_at -= 60
    protocol.check_timeouts()
    assert protocol.sent == [] and len(protocol.queued) == 1


def test_a_silent_socket_gets_the_servers_ping_with_its_version():
    protocol = _wired()
    protocol.check_timeouts()
    assert protocol.sent == []  # written to just now
    protocol.wrote_at -= 5.0
    protocol.check_timeouts()
    assert protocol.sent == [b'{"t": "pong", "v": null, "d": {"v": 5}}']
    protocol.wire.every = 0  # GAMES_SERVER_PING=0: never
    protocol.wrote_at -= 60
    protocol.check_timeouts()
    assert len(protocol.sent) == 1


def test_the_consumers_frames_go_straight_to_an_open_socket_and_nowhere_once_it_closes():
    protocol = _wired()
    protocol.send_text('{"t": "move", "v": 6}')
    assert protocol.sent == [b'{"t": "move", "v": 6}']
    protocol.state = KeepaliveWebSocketProtocol.STATE_CLOSING
    protocol.send_text('{"t": "move", "v": 7}')
    assert protocol.sent == [b'{"t": "move", "v": 6}']


def test_a_consumers_pong_is_made_once_per_version_and_always_says_what_it_has_sent():
    import json

    from games.consumers.game import GameConsumer

    consumer = GameConsumer.__new__(GameConsumer)
    consumer.game_id, consumer.sent = 3, 5
    first = consumer.pong_text()
    assert json.loads(first) == {"t": "pong", "v": None, "d": {"game": 3, "v": 5}}
    assert consumer.pong_text() is first  # an idle socket's next ping: the same text
    consumer.sent = 6
    assert json.loads(consumer.pong_text())["d"] == {"game": 3, "v": 6}
    consumer.game_id, consumer.sent = 4, 0  # the match's next game
    assert json.loads(consumer.pong_text())["d"] == {"game": 4, "v": 0}
