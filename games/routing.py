"""Websocket URL patterns, mounted by backgammon_site.asgi (see docs/PROTOCOL.md)."""

from django.urls import path

from games.consumers import chouette as chouette_consumers, game as consumers
from games.consumers.echo import bench_urlpatterns

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/chouettes/<int:chouette_id>/", chouette_consumers.ChouetteConsumer.as_asgi()),
]

# /ws/bench/echo/ for bench/ws_bench.py, only when GAMES_BENCH_ECHO=1.
websocket_urlpatterns += bench_urlpatterns()
