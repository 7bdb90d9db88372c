"""A bare Channels echo consumer: the latency floor for bench/ws_bench.py.

It sends every text frame straight back: no database, no channel layer, no JSON parsing.
Mounted at ``/ws/bench/echo/`` only when the environment has ``GAMES_BENCH_ECHO=1``
(games/routing.py); never in production.
"""

from __future__ import annotations

import os

from channels.generic.websocket import AsyncWebsocketConsumer

ECHO_PATH = "ws/bench/echo/"


def enabled() -> bool:
    return os.environ.get("GAMES_BENCH_ECHO", "").strip() == "1"


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await self.send(text_data=text_data)
        else:
            await self.send(bytes_data=bytes_data)


def bench_urlpatterns() -> list:
    """The echo route when ``GAMES_BENCH_ECHO=1``, else nothing."""
    if not enabled():
        return []
    from django.urls import path

    return [path(ECHO_PATH, EchoConsumer.as_asgi())]
