"""A house bot's decision in a chouette, played through the services (the workers'
``chouette_bot_turn`` task, ``games.tasks``). One action per task, with the version it was
decided on: a duplicate or late task is refused as stale and changes nothing; the commit
of that action queues the next bot decision if one is due."""

from __future__ import annotations

import logging

from games.engine.errors import EngineError
from games.errors import ServiceError

logger = logging.getLogger(__name__)


def play_chouette_turn(chouette_id: int, version: int | None = None) -> str | None:
    from games import services
    from games.bots.chouette import decide
    from games.engine import chouette as ce
    from games.models import Chouette, ChouetteGame, HouseBot

    c = Chouette.objects.filter(pk=chouette_id, status=Chouette.PLAYING).first()
    if c is None or (version is not None and c.version != version):
        return None
    row = c.games.filter(status=ChouetteGame.PLAYING).order_by("-number").first()
    if row is None:
        return None
    game = ce.ChouetteGame.from_dict(row.state)
    levels = dict(HouseBot.objects.filter(player_id__in=list(game.actor_set())).values_list("player_id", "level"))
    for pid, level in sorted(levels.items()):
        decision = decide(level, game, pid)
        if decision is None:
            continue
        action, fields = decision
        try:
            services.chouette_act(chouette_id=c.pk, player=pid, action=action, expected_version=c.version, **fields)
        except ServiceError as exc:
            if exc.code == "stale_version":
                return None
            raise
        except EngineError:
            logger.warning("chouette bot %s: %s refused; playing the safe answer", level, action)
            fallback = game.timeout_answer(pid) or (("move", {"steps": _first_play(game)}),)
            a, f = fallback[0]
            services.chouette_act(chouette_id=c.pk, player=pid, action=a, expected_version=c.version, **f)
            return a
        return action
    return None


def _first_play(game) -> list:
    plays = game.legal_plays()
    return [s.to_dict() for s in plays[0].steps] if plays else []
