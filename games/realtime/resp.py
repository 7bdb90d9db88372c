"""A lean Redis connection for the bus's hot path (``games.realtime.buses.RedisBus``): the
process's publishes and its subscription, spoken in Redis's own protocol (RESP2) over an
asyncio stream.

redis-py's asyncio client costs about 0.1 ms of CPU a publish and 0.2 ms a message received
(its connection pool, retry and instrumentation layers, its pure-Python reply parser, a
timeout per ``get_message``): a third of a millisecond a move on PostgreSQL + Redis, where a
move's whole budget is 2 ms (issue 32). Here a publish is one line written (several pending
ones in one write) and a message one reply read: about a tenth of that. redis-py still parses
the URL and serves what is not on the hot path (a worker's publishes, the cache, the queue).

The URLs are redis-py's: ``redis://[[user]:password@]host[:port][/db]``, ``rediss://`` (TLS,
certificates checked unless ``?ssl_cert_reqs=none``) and ``unix://[[user]:password@]/path``.
"""

from __future__ import annotations

import asyncio
import socket
import ssl


class ReplyError(Exception):
    """Redis answered an error (``-ERR ...``)."""


def command(*parts) -> bytes:
    """One command in Redis's protocol (each part ``bytes`` or ``str``)."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        if isinstance(part, str):
            part = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


async def reply(reader: asyncio.StreamReader):
    """The next reply: ``bytes`` for a string, ``int``, a list, or None; an error reply raises
    :class:`ReplyError`, a closed connection ``ConnectionError``."""
    line = await reader.readline()
    if not line.endswith(b"\r\n"):
        raise ConnectionError("Redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else (await reader.readexactly(n + 2))[:-2]
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [await reply(reader) for _ in range(n)]
    if kind == b":":
        return int(rest)
    if kind == b"+":
        return rest
    if kind == b"-":
        raise ReplyError(rest.decode(errors="replace"))
    raise ConnectionError(f"not a Redis reply: {line[:40]!r}")


async def connect(url: str, timeout: float = 1.0) -> tuple:
    """``(reader, writer)`` of a new connection to the Redis of ``url``, authenticated if the
    URL says a password."""
    from redis.connection import SSLConnection, UnixDomainSocketConnection, parse_url

    options = parse_url(url)
    kind = options.get("connection_class")
    if kind is UnixDomainSocketConnection:
        opening = asyncio.open_unix_connection(options["path"])
    else:
        context = None
        if kind is SSLConnection:
            context = ssl.create_default_context()
            if str(options.get("ssl_cert_reqs", "required")).lower() in ("none", "cert_none"):
                context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        opening = asyncio.open_connection(options.get("host", "localhost"), int(options.get("port", 6379)),
                                          ssl=context)
    reader, writer = await asyncio.wait_for(opening, timeout)
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if options.get("password"):
        user = options.get("username")
        writer.write(command("AUTH", *([user] if user else []), options["password"]))
        try:
            await asyncio.wait_for(reply(reader), timeout)
        except BaseException:
            writer.close()
            raise
    return reader, writer


def close(writer) -> None:
    """Close a connection now, whatever it is waiting for."""
    if writer is None:
        return
    try:
        writer.transport.abort()
    except Exception:
        pass
