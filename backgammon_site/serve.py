"""Daphne, closing oversized websocket messages with 1009 instead of dropping the connection.

Run it exactly like the ``daphne`` command: ``python -m backgammon_site.serve -b 127.0.0.1
-p 8000 --websocket-max-message-size 65536 --websocket-max-frame-size 65536
backgammon_site.asgi:application``.

Daphne's limits (``--websocket-max-message-size``/``--websocket-max-frame-size``) are
enforced by autobahn, which by default *drops* the TCP connection of a client that goes over
them (its ``failByDrop`` option), so the client sees no close code at all. The application
cannot send 1009 itself (autobahn lets it send only 1000 and 3000-4999), so the close must
come from the protocol layer: here ``failByDrop`` is off, and autobahn answers a message
over the limit with a close frame, code 1009 ("message too big") and a reason, then closes.
Messages under the transport limit but over the protocol's 4 KB (docs/PROTOCOL.md) are
refused by the consumer with ``too_large`` and the socket stays open.
"""

from __future__ import annotations

import sys

from daphne import server as daphne_server
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory


class ClosingWebSocketFactory(WebSocketFactory):
    """Daphne's factory with autobahn's ``failByDrop`` off: failures close with a code."""

    def resetProtocolOptions(self):
        super().resetProtocolOptions()
        self.failByDrop = False


def main(argv=None) -> None:
    daphne_server.WebSocketFactory = ClosingWebSocketFactory  # the name Server.run() builds
    CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
