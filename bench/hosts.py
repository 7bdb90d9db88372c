"""The site on several hosts: two web hosts, a services host, a load balancer and the clients,
each a network namespace of this machine with its own address (root only).

    sudo .venv/bin/python bench/hosts.py                        # one-host run, then the hosts, then the cut
    sudo .venv/bin/python bench/hosts.py --games 100 --rates 50,100 --no-compare --no-fault   # quick
    sudo .venv/bin/python bench/hosts.py --no-capacity          # only the link cut

The hosts (``bench/netns.py``: namespaces ``bgh-*`` on a bridge of their own, addresses in
10.77.0.0/24 only; nothing is added to the machine's own network, and everything is removed at
the end, on Ctrl-C or an error too, and at the start what a killed run left):

* **services** (10.77.0.2): a PostgreSQL cluster of its own (``initdb`` in a temporary
  directory, listening on that address only) and a ``redis-server`` of its own; the site's
  workers (one quick, one long) run there too;
* **lb** (10.77.0.3): HAProxy, the load balancer (``haproxy`` from Debian): websocket upgrade,
  ``leastconn``, a health check every half second, and a server marked down has its sessions shut
  (``on-marked-down shutdown-sessions``) so its clients reconnect at once to the other;
* **clients** (10.77.0.4): this process (its main thread moves there) and so every client;
* **web1**, **web2** (10.77.0.5, .6): ``python -m backgammon_site.serve`` each, on
  ``DATABASE_URL``/``REDIS_URL`` of the services host, the same secret key.

It prints:

1. **The one-host run** (``--compare``, the default): the same two web processes, PostgreSQL
   (``TEST_DATABASE_URL``'s server), a Redis of its own and the same HAProxy all on this
   machine's loopback (a one-machine site behind its proxy), as ``bench/ws_bench.py --servers 2``
   but through the proxy: the only difference left is the hosts.
2. **The hosts**: the same games through the load balancer; per step of the move rate, p50/p99
   from a move to the last socket of its game, errors, losses and CPU per move (the two web
   processes' user + system time per delivered move, and each one's share), then the highest
   rate that held, and both runs' CPU per move side by side (target: within 15%).
3. **The link cut** (``--fault``): the chaos run's players, spectators, house bots and bot-API
   agents (``bench/chaos.py``, reused: its players reconnect as ``static/js`` does) play through
   the load balancer; after ``--fault-after`` s web1's link goes down for ``--cut`` s, then up.
   Its checks: lost (acknowledged actions missing), gaps, stalls over 5 s, 5xx, presence rows
   left, unfinished matches. Exit status 1 if any is not zero.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pwd
import shutil
import signal
import socket
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import chaos, netns, ws_bench  # noqa: E402
from bench.reference import describe as machine_reference  # noqa: E402
from bench.ws_clients import Clients, cpu_seconds, pct  # noqa: E402
from tests.live import DAPHNE_FLAGS, Proc, RedisServer, Site, choose_ports, tail  # noqa: E402

ROLES = ["services", "lb", "clients", "web1", "web2"]
WEBS = ["web1", "web2"]
PORT = 8000  # every web process's and the load balancer's
PG_PORT, REDIS_PORT = 5432, 6379
IDLE_TX = "2s"  # PostgreSQL's idle_in_transaction_session_timeout on the services host
SECRET = "hosts-bench-" + "x" * 50  # one key for every host: sessions made by one are read by the other

HAPROXY = """\
global
    maxconn 9000
    nbthread 1
defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout check 3s            # to answer, once connected (the connect's own timeout: inter, 500ms)
    retries 2
    option redispatch
    option http-no-delay
frontend site
    bind {lb}:{port}
    maxconn 9000
    default_backend webs
backend webs
    balance leastconn
    option httpchk
    http-check send meth GET uri /favicon.ico ver HTTP/1.1 hdr Host {lb}
    http-check expect status 200
    default-server inter 500ms fastinter 250ms fall 3 rise 2 on-marked-down shutdown-sessions
{servers}
"""


def pg_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not found:
        raise SystemExit(f"no PostgreSQL server binaries ({name}) under /usr/lib/postgresql")
    return str(found[-1])


def wait_port(host: str, port: int, proc: Proc, timeout: float = 60.0) -> None:
    """A bounded poll for ``host:port``, failing early if ``proc`` ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited:\n{tail(proc.log)}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {host}:{port} after {timeout} s:\n{tail(proc.log)}")


class Services:
    """PostgreSQL (a cluster of its own) and Redis on the services host."""

    def __init__(self, net: netns.Network, tmp: Path):
        self.net, self.tmp = net, tmp
        self.address = net.hosts["services"].address
        self.data = tmp / "pg"
        self.procs = []
        self.database_url = f"postgres://postgres@{self.address}:{PG_PORT}/backgammon"
        self.redis_url = f"redis://{self.address}:{REDIS_PORT}/0"

    def start(self) -> None:
        postgres = pwd.getpwnam("postgres")
        os.chmod(self.tmp, 0o755)
        self.data.mkdir(mode=0o700)
        os.chown(self.data, postgres.pw_uid, postgres.pw_gid)
        as_postgres = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
        netns.run([*as_postgres, pg_bin("initdb"), "-D", str(self.data), "-U", "postgres",
                   "--auth=trust", "--no-sync", "-E", "UTF8"])
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"listen_addresses = '{self.address}'\nport = {PG_PORT}\n"
                       f"unix_socket_directories = '{self.data}'\nmax_connections = 200\n"
                       # a host cut in the middle of a transaction would hold its rows' locks
                       # until its link came back (docs/DEPLOY.md, "Several hosts")
                       f"idle_in_transaction_session_timeout = '{IDLE_TX}'\n")
        with open(self.data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {netns.NETWORK} trust\n")
        pg = Proc("postgres", self.net.exec("services", [*as_postgres, pg_bin("postgres"),
                                                          "-D", str(self.data)]), dict(os.environ), self.tmp / "postgres.log")
        redis = Proc("redis", self.net.exec("services", ["redis-server", "--port", str(REDIS_PORT), "--bind", self.address,
                                                         "--protected-mode", "no", "--save", "", "--appendonly", "no", "--dir", str(self.tmp)]),
                     dict(os.environ), self.tmp / "redis.log")
        for proc, port in ((pg, PG_PORT), (redis, REDIS_PORT)):
            proc.start()
            self.procs.append(proc)
            wait_port(self.address, port, proc)
        import psycopg

        for _ in range(50):  # the port opens before the cluster accepts connections
            try:
                with psycopg.connect(self.database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE backgammon")
                break
            except psycopg.OperationalError:
                time.sleep(0.2)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            proc.kill(signal.SIGINT if proc.name == "postgres" else signal.SIGTERM)


class Balancer:
    """HAProxy at ``address:port`` in front of ``servers`` ((name, address, port)); ``wrap``
    puts its command on a host (``Network.exec``), none: this machine."""

    def __init__(self, tmp: Path, address: str, port: int, servers: list, wrap=lambda argv: argv, name="haproxy"):
        self.address, self.port = address, port
        lines = "\n".join(f"    server {n} {a}:{p} check" for n, a, p in servers)
        config = tmp / f"{name}.cfg"
        config.write_text(HAPROXY.format(lb=address, port=port, servers=lines))
        self.proc = Proc(name, wrap(["haproxy", "-db", "-f", str(config)]), dict(os.environ), tmp / f"{name}.log")

    @classmethod
    def on_hosts(cls, net: netns.Network, tmp: Path) -> "Balancer":
        return cls(tmp, net.hosts["lb"].address, PORT, [(r, net.hosts[r].address, PORT) for r in WEBS],
                   wrap=lambda argv: net.exec("lb", argv))

    def start(self) -> None:
        self.proc.start()
        wait_port(self.address, self.port, self.proc)

    def cpu(self) -> float:
        return cpu_seconds(self.proc.popen.pid)

    def stop(self) -> None:
        self.proc.kill(signal.SIGTERM)

    def __enter__(self) -> "Balancer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class HostsSite(Site):
    """The site's processes on the hosts: a web process on each web host, the workers on the
    services host; ``url()`` is the load balancer's."""

    def __init__(self, tmp: Path, net: netns.Network, *, workers: int, env: dict):
        self.net = net
        super().__init__(tmp, webs=len(WEBS), workers=workers, env=env, worker_threads=4)

    def _web(self, i: int) -> Proc:
        address = self.net.hosts[WEBS[i]].address
        return Proc(f"web{i}", self.net.exec(WEBS[i], [sys.executable, "-m", "backgammon_site.serve", "-b", address,
                                                       "-p", str(PORT), *DAPHNE_FLAGS, "backgammon_site.asgi:application"]),
                    self.env, self.tmp / f"web{i}.log", PORT, host=address)

    def _worker(self, i: int) -> Proc:
        proc = super()._worker(i)
        proc.args = self.net.exec("services", proc.args)
        return proc

    def _long_worker(self, i: int) -> Proc:
        proc = super()._long_worker(i)
        proc.args = self.net.exec("services", proc.args)
        return proc

    def url(self, i: int = 0, scheme: str = "http") -> str:
        return f"{scheme}://{self.net.hosts['lb'].address}:{PORT}"


# -- capacity ------------------------------------------------------------------------------------------


def bench_env(extra: dict) -> dict:
    return {"DJANGO_DEBUG": "0", "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_LOG_LEVEL": "WARNING",
            "DJANGO_SECRET_KEY": SECRET, "GAMES_SWEEP_INTERVAL": "0", **extra}


async def capacity(title: str, specs, args, host: str, ports: list, pids: list) -> dict:
    """Every socket connected (round robin over ``ports``), then ws_bench's search of the rate."""
    clients = Clients(specs, args.spectators, ports, pids, pings=args.pings, host=host)
    await clients.connect(clients.games, ports)
    sockets = sum(len(g.sockets) for g in clients.games)
    idle = [cpu_seconds(pid) for pid in pids]
    await asyncio.sleep(args.idle)
    idle = [1000 * (cpu_seconds(pid) - c) / args.idle for pid, c in zip(pids, idle)]
    print(f"\n{title}: {len(clients.games)} games, {sockets} sockets; idle CPU "
          f"{' + '.join(f'{c:.0f}' for c in idle)} ms/s", flush=True)
    if args.every_rate:  # every rate, failed or not: the CPU per move to compare at each
        steps = []
        for rate in args.rates:
            steps.append(await clients.run_step(clients.games, rate, args.step_duration))
            print(steps[-1].line(), flush=True)
        best = max((s for s in steps if s.holds()), key=lambda s: s.rate, default=None)
    else:
        best, steps = await ws_bench.search(clients, args.rates, args.step_duration)
    await clients.close()
    return {"title": title, "best": best, "steps": steps, "idle": idle, "errors": clients.stray_errors}


def one_host(args, tmp: Path) -> dict:
    """The two web processes, PostgreSQL, Redis and the same load balancer on this machine's
    loopback (what a one-machine site runs behind nginx)."""
    ports = choose_ports(args.port, 4)
    with RedisServer(ports[2], tmp) as redis, \
            Site(tmp / "one", webs=2, postgres=True, redis_url=redis.url, env=bench_env({}), ports=ports[:2]) as site, \
            Balancer(tmp, "127.0.0.1", ports[3], [(f"web{i}", "127.0.0.1", p) for i, p in enumerate(ports[:2])],
                     name="haproxy-one") as balancer:
        specs = site.shell(ws_bench.SETUP % (args.games, args.spectators), timeout=1800)
        return measured(balancer, capacity("one host (loopback)", specs, args, "127.0.0.1", [ports[3]],
                                           [w.popen.pid for w in site.webs]))


def measured(balancer: Balancer, work) -> dict:
    """Run ``capacity(...)``; add the balancer's CPU seconds over it."""
    cpu = balancer.cpu()
    run = asyncio.run(work)
    run["lb_cpu"] = balancer.cpu() - cpu
    return run


def per_process(step) -> str:
    moves = max(1, len(step.latency))
    return " + ".join(f"{1000 * c / moves:.2f}" for c in step.cpu)


def compare(runs: list) -> None:
    print("\nCPU per move (ms, both web processes; each one's part), p99, by rate:")
    rates = [s.rate for s in runs[0]["steps"]]
    for run in runs[1:]:
        rates = [r for r in rates if r in {s.rate for s in run["steps"]}]
    for rate in rates:
        cells, cpu = [], []
        for run in runs:
            step = next(s for s in run["steps"] if s.rate == rate)
            cpu.append(step.cpu_ms_per_move())
            cells.append(f"{run['title']}: {cpu[-1]:.2f} ({per_process(step)}) p99 {1000 * pct(step.latency, 99):.0f} ms "
                         f"{'holds' if step.holds() else 'FAILS'}")
        ratio = cpu[-1] / cpu[0] if cpu[0] else float("nan")
        print(f"  {rate:5.0f}/s  " + "  |  ".join(cells) + f"  |  ratio {ratio:.2f} "
              f"({'within' if abs(ratio - 1) <= 0.15 else 'NOT within'} 15%)")
    for run in runs:
        best = run["best"]
        print(f"  {run['title']}: " + (f"{best.rate:g} moves/s held (p99 {1000 * pct(best.latency, 99):.1f} ms, "
                                       f"CPU/move {best.cpu_ms_per_move():.2f} ms)" if best else "no rate held")
              + (f"; errors outside the steps {run['errors']}" if run["errors"] else ""))


# -- the link cut ---------------------------------------------------------------------------------------


def link_cut(net: netns.Network, role: str, seconds: float):
    async def fault(site, agents):
        print(f"  {role}'s link down for {seconds:g} s", flush=True)
        net.cut(role)
        try:
            await asyncio.sleep(seconds)
        finally:
            net.restore(role)
    return fault


def fault_run(args, net: netns.Network, tmp: Path, env: dict) -> dict:
    chaos.FAULTS["cut-link"] = link_cut(net, WEBS[0], args.cut)
    with HostsSite(tmp / "fault", net, workers=1, env={**chaos.CHAOS_ENV, **env}) as site:
        loop = asyncio.new_event_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=64))
        try:
            return loop.run_until_complete(chaos.run_scenario(
                site, None, "cut-link", pairs=args.pairs, bots=args.bots, agents=args.agents, length=args.length,
                fault_after=args.fault_after, timeout=args.timeout))
        finally:
            loop.close()


def on_hosts(args, tmp: Path) -> tuple:
    runs, row = [], None
    with netns.Network(netns.plan(ROLES)) as net, net.inside("clients"):
        services = Services(net, tmp)
        balancer = Balancer.on_hosts(net, tmp)
        try:
            services.start()
            balancer.start()
            lb = net.hosts["lb"].address
            env = {"DATABASE_URL": services.database_url, "REDIS_URL": services.redis_url, "DJANGO_SECRET_KEY": SECRET,
                   "DJANGO_ALLOWED_HOSTS": lb}
            print(f"hosts: {', '.join(f'{h.role} {h.address}' for h in net.hosts.values())}; "
                  f"load balancer {lb}:{PORT} (HAProxy)", flush=True)
            if args.capacity:
                with HostsSite(tmp / "capacity", net, workers=0, env=bench_env(env)) as site:
                    specs = site.shell(ws_bench.SETUP % (args.games, args.spectators), timeout=1800)
                    runs.append(measured(balancer, capacity("two hosts", specs, args, lb, [PORT],
                                                            [w.popen.pid for w in site.webs])))
                    broken = site.tracebacks()
                    if broken:
                        print(f"! tracebacks in the logs of {broken}")
            if args.fault:
                row = fault_run(args, net, tmp, env)
        finally:
            balancer.stop()
            services.stop()
    return runs, row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--spectators", type=int, default=2, help="per game (plus its 2 players)")
    parser.add_argument("--rates", default="50,100,150,200,250,300",
                        type=lambda s: [float(x) for x in s.split(",")], help="moves/s to step through")
    parser.add_argument("--step-duration", type=float, default=8.0)
    parser.add_argument("--every-rate", action="store_true",
                        help="run every rate even after one failed (ws_bench stops at the first that fails)")
    parser.add_argument("--idle", type=float, default=5.0, help="s of idle CPU measured once every socket is open")
    parser.add_argument("--pings", choices=ws_bench.PINGS, default="browser",
                        help="what an idle client does (bench/ws_clients.py Clients): as browsers do by default")
    parser.add_argument("--browser-pings", dest="pings", action="store_const", const="browser",
                        help="the older spelling of --pings browser")
    parser.add_argument("--port", type=int, default=18700, help="the one-host run's first port to try")
    parser.add_argument("--no-compare", dest="compare", action="store_false", help="no one-host run")
    parser.add_argument("--no-capacity", dest="capacity", action="store_false", help="no capacity run on the hosts")
    parser.add_argument("--no-fault", dest="fault", action="store_false", help="no link cut")
    parser.add_argument("--cut", type=float, default=10.0, help="s web1's link is down")
    parser.add_argument("--fault-after", type=float, default=6.0)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--agents", type=int, default=4)
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="s a match may take (300, chaos.py's, ran out once on a loaded machine)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    args = parser.parse_args(argv)
    netns.require_root()
    if shutil.which("haproxy") is None:
        raise SystemExit("the load balancer is HAProxy: apt-get install haproxy")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a plain kill cleans up too
    lock = open(f"/run/{netns.PREFIX}-hosts-bench.lock", "w")  # one run at a time: a second would remove
    try:                                                       # the first one's hosts as leftovers
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit("another run of bench/hosts.py is going on") from None
    tmp = Path(tempfile.mkdtemp(prefix="hosts_bench_"))
    before = machine_reference()
    runs, row = [], None
    try:
        if args.compare and args.capacity:
            runs.append(one_host(args, tmp))
        more, row = on_hosts(args, tmp)
        runs += more
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"logs in {tmp}")
    print("\nsummary:")
    if runs:
        compare(runs)
        for run in runs:
            print(f"  the load balancer's CPU over the {run['title']} run: {run['lb_cpu']:.1f} s")
    if row is not None:
        print(f"\nweb1's link cut for {args.cut:g} s:\n" + chaos.table([row]))
    print(f"  before the run: {before}\n  after it: {machine_reference()}")
    return 1 if row is not None and chaos.failed(row) else 0


if __name__ == "__main__":
    raise SystemExit(main())
