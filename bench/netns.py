"""Hosts made of Linux network namespaces, for the several-hosts benchmark (bench/hosts.py).

Every namespace and link it makes is named with :data:`PREFIX`, and every address it gives is
in :data:`NETWORK`, a private range: nothing is added to the machine's own namespace. The hosts
hang on a bridge that lives in a namespace of its own (``<PREFIX>-lan``); each host is a
namespace with one interface, ``eth0``, the end of a veth pair whose other end is on the bridge.
Both ends are created directly in their namespaces, so no interface ever appears outside them.

    with Network(plan(["services", "lb", "clients", "web1", "web2"])) as net:
        with net.inside("clients"):       # this thread's sockets now live on the clients host
            ...
        net.cut("web1"); net.restore("web1")   # the host's link down, then up again

:class:`Network` removes what it made when it exits, however it exits, and
:func:`remove_leftovers` removes what an earlier run, killed before it could, left behind
(its processes too). Both run through one ``run`` function, so a test can record the
commands instead of running them (``tests/bench/test_netns.py``).
"""

from __future__ import annotations

import ctypes
import ipaddress
import os
import signal
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

PREFIX = "bgh"  # every namespace this module makes starts with "bgh-"
NETWORK = ipaddress.ip_network("10.77.0.0/24")
LAN = f"{PREFIX}-lan"
BRIDGE = "br0"
CLONE_NEWNET = 0x40000000


@dataclass(frozen=True)
class Host:
    role: str  # "web1", "services", ...
    netns: str  # its namespace
    address: str  # its one address, inside NETWORK
    peer: str  # its link's name on the bridge (in the LAN namespace)


def plan(roles: list, network=NETWORK) -> dict:
    """A host per role: role -> :class:`Host`, addresses from the network's second one up
    (the first is left for a gateway nobody needs). Refuses what would not fit or would
    leave the range."""
    network = ipaddress.ip_network(network)
    if not network.is_private:
        raise ValueError(f"{network} is not a private range")
    usable = list(network.hosts())[1:]
    if len(roles) > len(usable):
        raise ValueError(f"{len(roles)} hosts do not fit in {network}")
    if len(set(roles)) != len(roles):
        raise ValueError(f"roles named twice: {roles}")
    hosts = {}
    for role, address in zip(roles, usable):
        if not role.isalnum() or len(role) > 12:  # interface names are at most 15 characters
            raise ValueError(f"bad role name {role!r}")
        hosts[role] = Host(role, f"{PREFIX}-{role}", str(address), f"v-{role}")
    return hosts


def setup_commands(hosts: dict, network=NETWORK) -> list:
    """The ``ip`` commands that make the LAN and the hosts (argv lists)."""
    prefix = ipaddress.ip_network(network).prefixlen
    cmds = [["ip", "netns", "add", LAN],
            ["ip", "-n", LAN, "link", "add", BRIDGE, "type", "bridge"],
            ["ip", "-n", LAN, "link", "set", BRIDGE, "up"]]
    for h in hosts.values():
        cmds += [["ip", "netns", "add", h.netns],
                 ["ip", "-n", h.netns, "link", "set", "lo", "up"],
                 ["ip", "link", "add", "eth0", "netns", h.netns, "type", "veth", "peer", "name", h.peer, "netns", LAN],
                 ["ip", "-n", LAN, "link", "set", h.peer, "master", BRIDGE, "up"],
                 ["ip", "-n", h.netns, "addr", "add", f"{h.address}/{prefix}", "dev", "eth0"],
                 ["ip", "-n", h.netns, "link", "set", "eth0", "up"]]
    return cmds


def ours(name: str) -> bool:
    return name.startswith(PREFIX + "-")


def run(argv: list, check: bool = True) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}")
    return result.stdout


def listed(run=run) -> list:
    """The namespaces that exist now (``ip netns list``: "name" or "name (id: N)")."""
    return [line.split()[0] for line in run(["ip", "netns", "list"], check=False).splitlines() if line.strip()]


def remove(names, run=run, kill=os.kill) -> list:
    """End the processes inside each namespace of ``names`` that is ours, then delete it.
    Returns what was removed. A name that is not ours is never touched."""
    removed = []
    for name in names:
        if not ours(name):
            continue
        pids = [int(p) for p in run(["ip", "netns", "pids", name], check=False).split() if p.isdigit()]
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in pids:
                try:
                    kill(pid, sig)
                except ProcessLookupError:
                    pass
            if sig == signal.SIGTERM and pids:
                time.sleep(1.0)  # a grace second for them to end; then whatever is left is killed
        run(["ip", "netns", "del", name], check=False)
        removed.append(name)
    return removed


def remove_leftovers(run=run, kill=os.kill) -> list:
    """What a run killed before its clean-up left: every namespace of ours, hosts first."""
    names = [n for n in listed(run) if ours(n)]
    return remove(sorted(names, key=lambda n: n == LAN), run, kill)


def require_root() -> None:
    if os.geteuid() != 0:
        raise SystemExit("this benchmark makes network namespaces: run it as root (it adds nothing outside "
                         f"its own namespaces {PREFIX}-*, addresses {NETWORK} only, and removes them)")


class Network:
    """The LAN and its hosts, made on entry and removed on exit (also on an exception)."""

    def __init__(self, hosts: dict, run=run, kill=os.kill):
        self.hosts, self.run, self.kill = hosts, run, kill
        self.made = []

    def __enter__(self) -> "Network":
        left = remove_leftovers(self.run, self.kill)
        if left:
            print(f"removed leftovers of an earlier run: {', '.join(left)}")
        try:
            for argv in setup_commands(self.hosts):
                if argv[1:3] == ["netns", "add"]:
                    self.made.append(argv[3])
                self.run(argv)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        made, self.made = self.made, []
        remove(sorted(made, key=lambda n: n == LAN), self.run, self.kill)

    def exec(self, role: str, argv: list) -> list:
        """``argv`` to run on host ``role``."""
        return ["ip", "netns", "exec", self.hosts[role].netns, *argv]

    def cut(self, role: str) -> None:
        self.run(["ip", "-n", self.hosts[role].netns, "link", "set", "eth0", "down"])

    def restore(self, role: str) -> None:
        self.run(["ip", "-n", self.hosts[role].netns, "link", "set", "eth0", "up"])

    @contextmanager
    def inside(self, role: str):
        """This thread (and the threads and processes it starts meanwhile) on host ``role``."""
        home = open(f"/proc/self/task/{threading.get_native_id()}/ns/net")
        with home, open(f"/run/netns/{self.hosts[role].netns}") as there:
            setns(there.fileno())
            try:
                yield self.hosts[role]
            finally:
                setns(home.fileno())


def setns(fd: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")
