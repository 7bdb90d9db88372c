"""Bearer-key authentication of agents (``Authorization: Bearer <key>``)."""

from __future__ import annotations

import hmac

from games.models import Agent, Player
from games.services.agents import hash_key
from games.api import ratelimit
from games.api.errors import ApiError
from django.utils.translation import gettext

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="bot api"'}


def agent_player(request) -> Player:
    """The agent's player for the request's key (401 without a valid key, 403 when suspended),
    counted against the agent's rate limit (429)."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise ApiError(401, "unauthorized", gettext("Send your API key as 'Authorization: Bearer <key>' (register with POST /api/agents)."), CHALLENGE)
    digest = hash_key(key)
    agent = Agent.objects.select_related("player").filter(key_hash=digest).first()
    if agent is None or not hmac.compare_digest(agent.key_hash, digest):
        raise ApiError(401, "bad_key", gettext("That API key is not valid."), CHALLENGE)
    player = agent.player
    if player.suspended:
        raise ApiError(403, "suspended", gettext("This agent is suspended."))
    ratelimit.check(f"agent:{player.pk}")
    return player
