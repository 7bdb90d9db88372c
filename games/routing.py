"""Websocket URL patterns, mounted by backgammon_site.asgi (see docs/PROTOCOL.md)."""

from django.urls import path

from games.consumers.chouette import ChouetteConsumer
from games.consumers.echo import bench_urlpatterns
from games.consumers.game import GameConsumer
from games.consumers.lobby import LobbyConsumer
from games.consumers.player import PlayerConsumer
from games.consumers.tournament import TournamentConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", PlayerConsumer.as_asgi()),
    path("ws/chouettes/<int:chouette_id>/", ChouetteConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]

# /ws/bench/echo/ for bench/ws_bench.py, only when GAMES_BENCH_ECHO=1.
websocket_urlpatterns += bench_urlpatterns()
