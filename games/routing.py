"""Websocket URL patterns, mounted by backgammon_site.asgi (see docs/PROTOCOL.md)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
