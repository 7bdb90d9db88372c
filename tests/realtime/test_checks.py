"""backgammon_site/checks.py: the web server's periodic checks visit only the connections that
need one (issue 32). An open websocket checks itself from a timing wheel (one timer for all);
Daphne's 2 s walk covers the rest; the application check looks at what closed or ended."""

import asyncio
import logging
import time
from types import SimpleNamespace

from twisted.internet.task import Clock

from backgammon_site.checks import CheckWheel
from backgammon_site.serve import KeepaliveWebSocketProtocol, WiredServer
from tests.realtime.test_keepalive import Owner, _wired


class Wheel(CheckWheel):
    """A finer wheel than the process's, to see the rounding to a tick."""

    TICK, SLOTS = 0.1, 128


class Item:
    def __init__(self, wheel, again=None, fail=False):
        self.wheel, self.again, self.fail, self.at = wheel, again, fail, []

    def own_check(self):
        self.at.append(round(self.wheel.clock.seconds(), 3))
        if self.again is not None:
            self.wheel.add(self, self.again)
        if self.fail:
            raise RuntimeError("a check that fails")


def _advance(clock, seconds, step=0.1):
    for _ in range(round(seconds / step)):
        clock.advance(step)
    clock.advance(1e-6)  # past the float error of the sum


def test_each_item_is_called_back_at_the_first_tick_after_its_delay_by_one_timer():
    clock = Clock()
    wheel = Wheel(clock)
    early, late, far = Item(wheel), Item(wheel), Item(wheel)
    wheel.add(early, 0.05)  # rounded up to a whole tick
    wheel.add(late, 0.35)
    wheel.add(far, 60)  # cut to the wheel's reach
    assert len(clock.getDelayedCalls()) == 1 and wheel.size == 3
    _advance(clock, 0.3)
    assert early.at == [0.1] and late.at == []
    _advance(clock, 0.2)
    assert late.at == [0.4] and far.at == []
    _advance(clock, Wheel.SLOTS * Wheel.TICK)
    assert far.at == [round((Wheel.SLOTS - 1) * Wheel.TICK, 3)]
    assert wheel.size == 0 and len(clock.getDelayedCalls()) == 1  # still one timer


def test_an_item_that_adds_itself_again_comes_back_and_a_failing_one_stops_nothing(caplog):
    clock = Clock()
    wheel = Wheel(clock)
    again, failing, other = Item(wheel, again=1.0), Item(wheel, fail=True), Item(wheel)
    for item in (failing, again, other):
        wheel.add(item, 0.5)
    with caplog.at_level(logging.ERROR):
        _advance(clock, 2.6)
    assert again.at == [0.5, 1.5, 2.5] and failing.at == [0.5] and other.at == [0.5]
    assert "check failed" in caplog.text


def test_a_late_timer_runs_every_slot_it_missed_in_one_go():
    clock = Clock()
    wheel = Wheel(clock)
    items = [Item(wheel) for _ in range(5)]
    for n, item in enumerate(items):
        wheel.add(item, 0.1 * (n + 1))
    clock.advance(2.0)  # the event loop was busy for two seconds
    assert [item.at for item in items] == [[2.0]] * 5


# -- an open websocket checks itself --------------------------------------------------------------


def _self_checking(silent_for=0.0):
    protocol = _wired(silent_for=silent_for)
    protocol.wheel = Wheel(Clock())
    protocol.server.checks_itself = lambda p: protocol.server.__dict__.setdefault("left", []).append(p)
    return protocol


def test_an_open_socket_pings_its_silent_client_from_its_own_check_and_leaves_the_walk():
    protocol = _self_checking()
    protocol.check_soon()
    assert protocol.server.left == [protocol] and protocol.checking
    clock = protocol.wheel.clock
    protocol.wrote_at -= 10  # silent for longer than the wire's 5 s
    _advance(clock, 5.0)
    assert protocol.sent == [Owner(5).pong_text().encode()]
    protocol.wrote_at = time.monotonic()  # the ping, just written: the next one is seconds away
    _advance(clock, 1.0)
    assert len(protocol.sent) == 1 and protocol.wheel.size == 1


def test_the_wait_is_until_the_first_thing_due_and_within_bounds():
    protocol = _self_checking()
    protocol.wrote_at = time.monotonic() - 4.0  # the server's ping due in about 1 s
    assert 0.9 < protocol.next_check() <= 1.0
    protocol.wrote_at -= 60
    assert protocol.next_check() == KeepaliveWebSocketProtocol.CHECK_MIN
    owner, protocol.wire.owner = protocol.wire.owner, None  # its consumer gone: no ping to wait for
    assert protocol.next_check() == KeepaliveWebSocketProtocol.CHECK_MAX
    protocol.wire.owner = owner
    protocol.wire.every = 0  # no server ping: Daphne's keepalive (20 s) is further than the bound
    assert protocol.next_check() == KeepaliveWebSocketProtocol.CHECK_MAX
    protocol.server.websocket_timeout = protocol.duration() + 2  # Daphne's socket timeout first
    assert 1.5 < protocol.next_check() <= 2.0


def test_a_closed_socket_drops_out_of_the_wheel():
    protocol = _self_checking()
    protocol.check_soon()
    protocol.state = KeepaliveWebSocketProtocol.STATE_CLOSED
    protocol.wrote_at -= 60
    _advance(protocol.wheel.clock, 6.0)
    assert protocol.sent == [] and protocol.wheel.size == 0 and not protocol.checking


# -- the server ----------------------------------------------------------------------------------------


class Conn:
    """A connection as the server sees it: its checks and its application's failure counted."""

    def __init__(self):
        self.checked, self.failures = 0, []

    def check_timeouts(self):
        self.checked += 1

    def handle_exception(self, exception):
        self.failures.append(exception)


def _server():
    server = WiredServer(application=None, endpoints=["tcp:port=0"])
    server.connections, server.clock = {}, Clock()
    return server


def test_the_two_second_walk_leaves_out_the_sockets_that_check_themselves():
    server = _server()
    http, socket = Conn(), Conn()
    for conn in (http, socket):
        server.protocol_connected(conn)
    server.checks_itself(socket)
    server.timeout_checker()
    assert (http.checked, socket.checked) == (1, 0)
    server.clock.advance(2)  # it runs again
    assert http.checked == 2


def test_the_application_check_looks_only_at_what_closed_or_ended_and_does_what_daphne_does():
    loop = asyncio.new_event_loop()
    try:
        server = _server()
        server.application_close_timeout = 10
        idle, crashed, closed, closing = Conn(), Conn(), Conn(), Conn()
        for conn in (idle, crashed, closed, closing):
            server.protocol_connected(conn)
            server.connections[conn]["application_instance"] = loop.create_future()
            server.watch_application(conn)
        failure = ValueError("the consumer failed")
        server.connections[crashed]["application_instance"].set_exception(failure)
        server.connections[closed]["application_instance"].set_result(None)
        server.protocol_disconnected(closed)
        server.protocol_disconnected(closing)  # its application still running
        loop.run_until_complete(asyncio.sleep(0))  # the futures' callbacks
        assert server.attention == {crashed, closed, closing}
        server.application_checker()
        assert crashed.failures == [failure] and "application_instance" not in server.connections[crashed]
        assert closed not in server.connections and idle in server.connections
        assert server.attention == {closing}  # looked at again until its application ends
        server.clock.advance(1)
        assert server.attention == {closing}
        instance = server.connections[closing]["application_instance"]
        server.connections[closing]["disconnected"] -= 11  # outlived the close timeout: cancelled, forgotten
        server.clock.advance(1)
        assert instance.cancelled() and closing not in server.connections and server.attention == set()
        assert set(server.connections) == {idle, crashed}
    finally:
        loop.close()


def test_a_connection_whose_check_fails_is_logged_and_checked_next_time(caplog):
    server = _server()
    broken, closed = Conn(), Conn()
    for conn in (broken, closed):
        server.protocol_connected(conn)
        server.protocol_disconnected(conn)
    server.connections[broken] = SimpleNamespace()  # not what the check expects: it fails
    with caplog.at_level(logging.ERROR):
        server.application_checker()
    assert "application check failed" in caplog.text
    assert server.attention == {broken} and closed not in server.connections
    assert len(server.clock.getDelayedCalls()) == 1  # the checks go on
