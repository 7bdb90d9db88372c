"""A socket answers in the language a page would (docs/TRANSLATING.md): the player's setting,
else the language cookie, else Accept-Language; the refusal's code never changes."""

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from backgammon_site.asgi import application
from games import services
from tests.consumers.conftest import db, session_cookie

pytestmark = pytest.mark.asyncio
LOBBY_REFUSAL = "The lobby answers 'ping' and 'resync'."


async def _refusal(headers):
    comm = WebsocketCommunicator(application, "/ws/lobby/",
                                 headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), *headers])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.send_json_to({"t": "nonsense", "d": {}})
    while True:
        message = await comm.receive_json_from(timeout=5)
        if message["t"] == "error":
            await comm.disconnect()
            return message["d"]


def _in(language):
    with translation.override(language):
        text = translation.gettext(LOBBY_REFUSAL)
    assert text != LOBBY_REFUSAL, f"the {language} catalogue has no {LOBBY_REFUSAL!r}"
    return text


async def test_a_socket_speaks_the_players_language(people):
    alice = people[0]
    assert await _refusal([]) == {"code": "unknown_type", "message": LOBBY_REFUSAL, "re": "nonsense"}
    assert (await _refusal([(b"accept-language", b"tr,en;q=0.5")]))["message"] == _in("tr")
    assert (await _refusal([(b"cookie", b"django_language=el")]))["message"] == _in("el")
    await db(services.player_update_settings, player=alice, changes={"language": "de"})
    cookie = f"sessionid={await session_cookie(alice)}".encode()
    refusal = await _refusal([(b"cookie", cookie), (b"accept-language", b"tr")])
    assert refusal["code"] == "unknown_type" and refusal["message"] == _in("de")
