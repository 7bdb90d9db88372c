"""A socket's line to the protocol layer, for what needs no Channels round trip: the answer
to an idle ping and the server's own ping (docs/PROTOCOL.md, "Delivery").

The web server (``backgammon_site/serve.py``) gives every websocket a :class:`Wire`, in its
scope (``scope["extensions"]["games.wire"]``). A socket that follows a numbered stream (a
match, a chouette, the lobby) attaches itself once it has sent its client the stream's state
and detaches when it closes. While it is attached the protocol layer, on the event loop's
own thread and between two of the consumer's steps:

- answers an idle ping from a client that misses nothing (:meth:`Wire.answer`, the
  consumer's ``quick_pong``) itself: no message through the application's queue, no task,
  no Channels send path. A ping from a client that is behind, anything else, and every
  message while no consumer is attached, go to the consumer as before;
- sends the consumer's ``pong`` unasked to a socket it has written nothing to for ``every``
  seconds (:meth:`Wire.tick`, the server's ping): it carries the version the socket has
  sent, so a client learns that it is behind, and a client that hears nothing for longer
  knows its socket is dead, without pinging itself;
- takes the consumer's text frames straight to the socket (``send``): no ``websocket.send``
  message through Channels' send path, its session middleware and Daphne's reply hop
  (8 frames a move with 4 sockets a game; a batch's frames for one socket in one write:
  ``send_many``). Before the consumer attaches (the accept, the
  first frames) and for a close, the consumer goes through Channels as usual; either way
  the frames are written in the order they are sent (neither path waits).

Both read what the consumer has *sent* its client (``sent``, updated after each frame is
written), so neither can claim a frame the client has not been sent.
"""

from __future__ import annotations

import json

EXTENSION = "games.wire"
MAX_PING = 200  # bytes: a longer message is not an idle ping worth answering here


class Wire:
    __slots__ = ("owner", "every", "send", "send_many")

    def __init__(self, send=None, send_many=None):
        self.owner = None  # the attached consumer: ``quick_pong(version, game)``, ``pong_text()``
        self.every = 0.0  # seconds of silence before the server's ping (0: none)
        self.send = send  # the protocol's ``send(text)``: a text frame now, nothing once closed
        # ``send_many([text, ...])``: those frames in order, in one write to the socket
        self.send_many = send_many or (lambda texts: [send(text) for text in texts])

    def answer(self, payload: bytes) -> str | None:
        """The pong for ``payload`` when it is an idle ping the protocol layer may answer
        alone; None hands the message to the consumer."""
        owner = self.owner
        if owner is None or len(payload) > MAX_PING or b'"ping"' not in payload:
            return None
        try:
            message = json.loads(payload)
        except ValueError:
            return None
        if type(message) is not dict or message.get("t") != "ping":
            return None
        return owner.quick_pong(message.get("v"), message.get("game"))

    def tick(self) -> str | None:
        """The server's ping for an idle socket, or None when no consumer is attached."""
        owner = self.owner
        return None if owner is None or not self.every else owner.pong_text()


def wire_of(scope) -> Wire | None:
    """The socket's wire, when its server gives one (not under Channels' test communicator)."""
    return (scope.get("extensions") or {}).get(EXTENSION)
