"""ASGI entry point: HTTP through Django, websockets through Channels."""
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")

# Set up Django (apps registry) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Everything loaded so far (Django, the apps, the URL and routing tables) lives as long as the
# process: move it out of the cyclic collector's way, so a full collection, which pauses
# every socket of the process, scans only what came later (backgammon_site/serve.py).
gc.collect()
gc.freeze()
