"""Websocket URL patterns, mounted by backgammon_site.asgi."""

websocket_urlpatterns = []
