"""The chouette part of the OpenAPI document (merged into ``games.api.openapi.SPEC``)."""

from __future__ import annotations

from games.api.schema import AUTH, ERR, json_body as _json, ref as _ref
from games.engine.actions import CHOUETTE_ACTIONS
from games.engine.chouette import PHASES
CHOUETTE_ID = {"name": "chouetteId", "in": "path", "required": True, "schema": {"type": "integer"}}
COMMON = {"401": ERR, "404": ERR, "429": ERR}

CUBE = {"type": "object", "description": "One team member's cube against the box (docs/CHOUETTE.md).",
        "properties": {"member": {"type": "integer"}, "holder": {"type": "integer"},
                       "opponent": {"type": "integer"}, "value": {"type": "integer"},
                       "owner": {"type": "string", "nullable": True, "enum": ["team", "box"]},
                       "turned": {"type": "boolean"}, "stage": {"type": "string", "nullable": True},
                       "end": {"type": "string", "nullable": True}, "points": {"type": "integer"}}}

CHOUETTE_VIEW = {
    "type": "object",
    "description": "A chouette as an agent sees it: the public state (every viewer's), your role and "
                   "what you may do. Player ids are agent/player ids.",
    "properties": {
        "chouette": {"type": "integer"}, "status": {"type": "string", "enum": ["open", "playing", "finished"]},
        "version": {"type": "integer", "description": "One sequence across the chouette's games."},
        "rules": {"type": "object"}, "decisionSeconds": {"type": "integer"},
        "deadline": {"type": "string", "nullable": True, "description": "When pending cube decisions time out "
                                                                          "to the safe answer."},
        "seats": {"type": "array", "items": {"type": "object"}},
        "session": {"type": "object", "nullable": True, "description": "line (box, captain, crew), scores, "
                                                                        "gamesPlayed, waiting, leaving."},
        "game": {"type": "object", "nullable": True, "properties": {
            "id": {"type": "integer"}, "number": {"type": "integer"}, "box": {"type": "integer"},
            "team": {"type": "array", "items": {"type": "integer"}}, "captain": {"type": "integer"},
            "cubes": {"type": "array", "items": CUBE}, "position": {"type": "object"},
            "phase": {"type": "string", "enum": list(PHASES)},
            "dice": {"type": "array", "items": {"type": "integer"}, "nullable": True},
            "pending": {"type": "array", "items": {"type": "object"}},
            "offers": {"type": "array", "items": {"type": "object"}},
            "legal": {"type": "array", "items": {"type": "array", "items": _ref("Step")}},
            "runningScores": {"type": "array"}, "consult": {"type": "array", "items": {"type": "integer"}},
            "allowed": {"type": "object"}}},
        "you": {"type": "integer"},
        "role": {"type": "string", "enum": ["box", "captain", "crew", "seated", "spectator"]},
        "yourActions": {"type": "array", "items": {"type": "string"}},
        "yourDecisions": {"type": "array", "items": {"type": "object"},
                          "description": "Your entries of game.pending: {player, reason, cubes}."},
        "isYourTurn": {"type": "boolean"},
    },
}

CHOUETTE_ACTION = {
    "type": "object", "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": list(CHOUETTE_ACTIONS)},
        "cube": {"type": "integer", "description": "The member whose cube (take, drop, beaver, raccoon, buy, "
                                                   "settlement answers)."},
        "cubes": {"type": "array", "items": {"type": "integer"}, "description": "double, propose_settlement."},
        "amount": {"type": "integer", "description": "propose_settlement: what you receive per cube."},
        "moves": {"type": "array", "items": _ref("Step"), "description": "move: the captain's play."},
        "version": {"type": "integer", "description": "Optional: 409 stale_version if no longer current."},
    },
}

SCHEMAS = {"ChouetteView": CHOUETTE_VIEW, "ChouetteAction": CHOUETTE_ACTION}

VIEW = _json(_ref("ChouetteView"))

PATHS = {
    "/api/chouettes": {
        "get": {"summary": "Open chouettes (a page of the lobby: tables with a free seat first; with their "
                           "seats and invite link) and yours", "security": AUTH,
                "parameters": [{"name": "page", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 1}}],
                "responses": {"200": _json({"type": "object"}), "401": ERR, "429": ERR}},
        "post": {"summary": "Open a chouette", "security": AUTH,
                 "requestBody": {"required": False, "content": {"application/json": {"schema": {
                     "type": "object", "properties": {
                         "options": {"type": "object", "description": "jacoby, beaver, raccoon, fullConsultation, "
                                     "cubeLimit, captainBuys, lastMemberBuys, settlements, minPlayers, maxPlayers"},
                         "private": {"type": "boolean"}, "decisionSeconds": {"type": "integer"}}}}}},
                 "responses": {"201": VIEW, "400": ERR, "401": ERR, "409": ERR, "429": ERR}}},
    "/api/chouettes/{chouetteId}": {"get": {
        "summary": "The chouette view; long-poll with wait and since", "security": AUTH,
        "parameters": [CHOUETTE_ID,
                       {"name": "wait", "in": "query", "required": False,
                        "schema": {"type": "number", "minimum": 0, "maximum": 30}},
                       {"name": "since", "in": "query", "required": False, "schema": {"type": "integer"}}],
        "responses": {"200": VIEW, "400": ERR, **COMMON}}},
    "/api/chouettes/{chouetteId}/join": {"post": {
        "summary": "Take a seat (at the end of the line; after the current game if one is on)", "security": AUTH,
        "parameters": [CHOUETTE_ID], "responses": {"200": VIEW, "409": ERR, **COMMON}}},
    "/api/chouettes/{chouetteId}/start": {"post": {
        "summary": "Start the chouette (its creator): seating by one die each, then the first game",
        "security": AUTH, "parameters": [CHOUETTE_ID], "responses": {"200": VIEW, "403": ERR, "409": ERR, **COMMON}}},
    "/api/chouettes/{chouetteId}/actions": {"post": {
        "summary": "Act in the current game: cube decisions, settlements, the captain's move", "security": AUTH,
        "parameters": [CHOUETTE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("ChouetteAction")}}},
        "responses": {"200": VIEW, "400": ERR, "403": ERR, "409": ERR, "422": ERR, **COMMON}}},
}
