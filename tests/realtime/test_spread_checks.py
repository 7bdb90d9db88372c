"""Daphne's every-2-s check of every connection (timeouts, keepalive and the server's ping),
spread over the round by ``backgammon_site.serve.SpreadChecks``: each connection is checked
once a round, a step checks at most a twentieth of them, a closed one is left out and a new
one joins the next round. The live server's pings (tests/realtime/test_server_ping.py,
test_keepalive.py) run through it."""

from backgammon_site.serve import SpreadChecks, WiredServer


class Conn:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def check_timeouts(self):
        self.log.append(self.name)


def test_every_connection_is_checked_once_a_round_a_twentieth_at_a_time():
    log = []
    connections = {Conn(log, i): None for i in range(45)}
    checks = SpreadChecks(connections)
    sizes = [checks.tick() for _ in range(15)]  # 45 in steps of 3 (ceil(45 / 20))
    assert sizes == [3] * 15 and sorted(log) == list(range(45))
    log.clear()
    assert [checks.tick() for _ in range(15)] == [3] * 15 and sorted(log) == list(range(45))  # the next round


def test_a_closed_connection_is_skipped_and_a_new_one_waits_for_the_next_round():
    log = []
    conns = [Conn(log, i) for i in range(40)]
    connections = dict.fromkeys(conns)
    checks = SpreadChecks(connections)
    checks.tick()  # the round lists the 40: steps of 2
    del connections[conns[10]]
    connections[Conn(log, "new")] = None
    while len(log) < 39:
        checks.tick()
    assert "new" not in log and 10 not in log and len(log) == 39
    checks.tick()  # the next round lists the new one
    while checks.at < len(checks.todo):
        checks.tick()
    assert log.count("new") == 1


def test_the_server_steps_through_its_connections_at_the_rounds_pace(monkeypatch):
    calls = []
    monkeypatch.setattr("daphne.server.reactor.callLater", lambda delay, fn, *a: calls.append(delay))
    server = WiredServer.__new__(WiredServer)
    log = []
    server.connections = {Conn(log, i): None for i in range(100)}
    server.timeout_checker()
    assert len(log) == 5 and calls == [SpreadChecks.ROUND / SpreadChecks.SLICES]
    assert SpreadChecks.ROUND == 2.0  # Daphne's own round
