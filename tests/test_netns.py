"""The several-hosts benchmark's network (bench/netns.py): what it would run, recorded instead of
run (no root needed). It names no address outside its private range, touches no namespace
that is not its own, and removes what it made (on an error too) and what a killed run left."""

import ipaddress
import re

import pytest

from bench import hosts, netns

ADDRESS = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")


class FakeIp:
    """Records ``ip`` commands; answers ``ip netns list`` and ``ip netns pids`` from a table."""

    def __init__(self, existing=(), pids=None, fail_at=None):
        self.existing, self.pids, self.fail_at = list(existing), dict(pids or {}), fail_at
        self.commands, self.killed = [], []

    def run(self, argv, check=True):
        self.commands.append(argv)
        if self.fail_at is not None and len(self.commands) == self.fail_at:
            raise RuntimeError("ip failed")
        if argv[1:3] == ["netns", "list"]:
            return "".join(f"{name} (id: {i})\n" for i, name in enumerate(self.existing))
        if argv[1:3] == ["netns", "pids"]:
            return "\n".join(str(p) for p in self.pids.get(argv[3], []))
        if argv[1:3] == ["netns", "add"]:
            self.existing.append(argv[3])
        if argv[1:3] == ["netns", "del"]:
            self.existing.remove(argv[3])
        return ""

    def kill(self, pid, sig):
        self.killed.append(pid)

    def namespaces_named(self):
        """Every namespace a command names (added, deleted, entered or listed for pids)."""
        named = set()
        for argv in self.commands:
            if argv[1] == "-n":
                named.add(argv[2])
            if argv[1] == "netns" and argv[2] in ("add", "del", "pids", "exec"):
                named.add(argv[3])
            if "netns" in argv[2:]:
                named.update(argv[i + 1] for i, a in enumerate(argv) if a == "netns" and i > 1 and i + 1 < len(argv))
        return named


def test_the_plan_gives_every_host_its_own_address_inside_the_private_range():
    plan = netns.plan(hosts.ROLES)
    addresses = [ipaddress.ip_address(h.address) for h in plan.values()]
    assert len(set(addresses)) == len(hosts.ROLES)
    assert all(a in netns.NETWORK and a not in (netns.NETWORK.network_address, netns.NETWORK.broadcast_address)
               for a in addresses)
    assert all(netns.ours(h.netns) for h in plan.values())


def test_the_plan_refuses_a_public_range_too_many_hosts_and_bad_names():
    with pytest.raises(ValueError, match="private"):
        netns.plan(["web1"], network="8.8.8.0/24")
    with pytest.raises(ValueError, match="fit"):
        netns.plan([f"web{i}" for i in range(4)], network="10.77.0.0/30")
    with pytest.raises(ValueError, match="bad role"):
        netns.plan(["web 1"])
    with pytest.raises(ValueError, match="twice"):
        netns.plan(["web1", "web1"])


def test_setting_up_names_no_address_outside_the_range_and_only_its_own_namespaces():
    fake = FakeIp()
    with netns.Network(netns.plan(hosts.ROLES), run=fake.run, kill=fake.kill):
        pass
    words = [w for argv in fake.commands for w in argv]
    assert words, "nothing was run"
    for word in words:
        for address in ADDRESS.findall(word):
            assert ipaddress.ip_address(address) in netns.NETWORK, word
    assert fake.namespaces_named() and all(netns.ours(n) for n in fake.namespaces_named())
    # Every link is made inside namespaces (both ends), never in the machine's own.
    for argv in fake.commands:
        if argv[1:3] == ["link", "add"] and "veth" in argv:
            assert argv.count("netns") == 2, argv
        elif argv[1] == "link" or argv[1] == "addr":
            raise AssertionError(f"a command on the machine's own namespace: {argv}")


def test_the_load_balancer_points_only_at_the_planned_addresses_and_runs_on_its_host(tmp_path):
    plan = netns.plan(hosts.ROLES)
    balancer = hosts.Balancer.on_hosts(netns.Network(plan, run=FakeIp().run), tmp_path)
    assert balancer.proc.args[:4] == ["ip", "netns", "exec", plan["lb"].netns]
    found = set(ADDRESS.findall((tmp_path / "haproxy.cfg").read_text()))
    assert found == {plan["lb"].address, *(plan[r].address for r in hosts.WEBS)}


def test_everything_made_is_removed_on_leaving_even_after_an_error():
    fake = FakeIp()
    with pytest.raises(KeyError):
        with netns.Network(netns.plan(hosts.ROLES), run=fake.run, kill=fake.kill):
            assert len(fake.existing) == len(hosts.ROLES) + 1  # the hosts and the LAN
            raise KeyError("the run failed")
    assert fake.existing == []
    assert fake.commands[-1] == ["ip", "netns", "del", netns.LAN]  # the bridge's namespace last


def test_a_failed_set_up_removes_what_it_had_made():
    fake = FakeIp(fail_at=12)
    with pytest.raises(RuntimeError):
        with netns.Network(netns.plan(hosts.ROLES), run=fake.run, kill=fake.kill):
            raise AssertionError("not reached")
    assert fake.existing == []


def test_leftovers_of_a_killed_run_are_removed_with_their_processes_and_nothing_else():
    fake = FakeIp(existing=["bgh-lan", "bgh-web1", "other", "bghx"], pids={"bgh-web1": [4242, 4243], "other": [1]})
    removed = netns.remove_leftovers(run=fake.run, kill=fake.kill)
    assert removed == ["bgh-web1", "bgh-lan"]
    assert fake.existing == ["other", "bghx"]
    assert set(fake.killed) == {4242, 4243}
    assert ["ip", "netns", "pids", "other"] not in fake.commands


def test_a_network_starts_by_removing_leftovers():
    fake = FakeIp(existing=["bgh-web2"])
    with netns.Network(netns.plan(["web1"]), run=fake.run, kill=fake.kill):
        assert "bgh-web2" not in fake.existing
    assert fake.existing == []


def test_the_bench_refuses_clearly_without_root(monkeypatch):
    monkeypatch.setattr(netns.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit, match="as root"):
        netns.require_root()
