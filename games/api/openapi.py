"""The OpenAPI 3 description of the bot API (hand-written; a test checks it names every URL)."""

from __future__ import annotations

from copy import deepcopy

from games.api import openapi_chouette, openapi_club, openapi_tournament
from games.api.schema import AUTH, ERR, json_body as _json, ref as _ref
from games.engine.actions import api_names
MATCH_ID = {"name": "matchId", "in": "path", "required": True, "schema": {"type": "integer"}}
COMMON_ERRORS = {"401": ERR, "429": ERR}

STEP = {
    "type": "object",
    "required": ["from", "to"],
    "properties": {
        "from": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 24}, {"type": "string", "enum": ["bar"]}]},
        "to": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 24}, {"type": "string", "enum": ["off"]}]},
    },
}

AGENT_VIEW = {
    "type": "object",
    "description": "What an agent sees. The first twelve fields are the seed's; the rest are extensions.",
    "properties": {
        "you": {"type": "integer", "description": "Your agent id."},
        "yourColor": {"type": "string", "enum": ["white", "black"]},
        "board": {"type": "array", "items": {"type": "integer"}, "minItems": 25, "maxItems": 25,
                  "description": "Index 0 unused; > 0 White checkers, < 0 Black checkers."},
        "whiteBar": {"type": "integer"}, "blackBar": {"type": "integer"},
        "whiteOff": {"type": "integer"}, "blackOff": {"type": "integer"},
        "dice": {"type": "array", "items": {"type": "integer"}, "description": "[] before the roll."},
        "legalMoves": {"type": "array", "items": {"type": "array", "items": STEP},
                       "description": "One play per distinct resulting position; only on your checker play."},
        "currentPlayer": {"type": "integer", "nullable": True, "description": "Agent id of who must act now."},
        "isYourTurn": {"type": "boolean"},
        "lastTurn": {"type": "array", "items": STEP, "nullable": True,
                     "description": "The previous checker play ([] for a pass), null before any."},
        "lastTurnBy": {"type": "integer", "nullable": True},
        "matchId": {"type": "integer"},
        "gameId": {"type": "string", "enum": ["backgammon"]},
        "gameNumber": {"type": "integer"},
        "matchLength": {"type": "integer", "description": "0 for a money session."},
        "score": {"type": "object", "properties": {"white": {"type": "integer"}, "black": {"type": "integer"}}},
        "crawford": {"type": "boolean", "description": "This is the Crawford game (no cube)."},
        "cube": {"type": "object", "properties": {
            "value": {"type": "integer"}, "owner": {"type": "string", "nullable": True, "enum": ["white", "black"]},
            "canDouble": {"type": "boolean"}, "enabled": {"type": "boolean"},
            "canBeaver": {"type": "boolean"}, "canRaccoon": {"type": "boolean"}}},
        "pendingOffer": {"type": "object", "nullable": True, "properties": {
            "type": {"type": "string", "enum": ["double", "resign"]}, "by": {"type": "integer"},
            "cubeValue": {"type": "integer"}, "canBeaver": {"type": "boolean"},
            "level": {"type": "integer"}, "name": {"type": "string"}, "points": {"type": "integer"}}},
        "phase": {"type": "string",
                  "enum": ["opening", "turn", "move", "cube_offered", "resign_offered", "over"]},
        "turn": {"type": "string", "enum": ["white", "black"]},
        "result": {"type": "object", "nullable": True},
        "matchOver": {"type": "boolean"},
        "matchStatus": {"type": "string"},
        "winner": {"type": "integer", "nullable": True, "description": "Agent id of the match winner."},
        "version": {"type": "integer", "description": "Match-wide; only grows during a match."},
        "gameVersion": {"type": "integer"},
        "opponent": {"type": "object", "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "rating": {"type": "number"},
            "isBot": {"type": "boolean"},
            "vacationUntil": {"type": "string", "format": "date-time", "nullable": True,
                              "description": "Correspondence: the opponent is on vacation until then."}}},
        "pips": {"type": "object"},
        "gnubgId": {"type": "string"},
        "timeControl": {"type": "object", "nullable": True, "description": "null: no clock.", "properties": {
            "kind": {"type": "string", "enum": ["live", "correspondence"]},
            "daysPerMove": {"type": "integer", "enum": [1, 2, 3, 5]}, "bankDays": {"type": "integer"},
            "delay": {"type": "integer"}, "bankPerPoint": {"type": "integer"}, "label": {"type": "string"}}},
        "clock": {"type": "object", "nullable": True, "properties": {
            "running": {"type": "integer", "nullable": True, "description": "Agent id on the clock."},
            "deadline": {"type": "string", "format": "date-time", "nullable": True,
                         "description": "When the time (per move + bank) of the player on the clock runs out."},
            "awardAt": {"type": "string", "format": "date-time", "nullable": True,
                        "description": "Correspondence: when the server awards the match if nobody claims."},
            "bankMs": {"type": "object", "properties": {"white": {"type": "integer"},
                                                        "black": {"type": "integer"}}}}},
    },
}

ACTION = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": api_names()},
        "moves": {"type": "array", "items": STEP, "description": "For 'move' only; [] passes."},
        "version": {"type": "integer", "description": "Optional: refused with 409 stale_version if the "
                                                      "match's version is no longer this one."},
    },
}

QUEUE_STATUS = {
    "type": "object",
    "properties": {"status": {"type": "string", "enum": ["queued", "matched", "expired", "none", "left"]},
                   "matchId": {"type": "integer"}, "matchLength": {"type": "integer"}},
}

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Backgammon bot API", "version": "1.0",
             "description": "Bots ('agents') register, queue, and play over HTTP. Guide: /api/guide."},
    "servers": [{"url": "/"}],
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                       "description": "The apiKey from POST /api/agents."}},
        "schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
            "Step": STEP,
            "AgentView": AGENT_VIEW,
            "Action": ACTION,
            "QueueStatus": QUEUE_STATUS,
        },
    },
    "paths": {
        "/api/agents": {"post": {
            "summary": "Register an agent (the key is shown once)",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name"],
                "properties": {"name": {"type": "string", "maxLength": 40},
                               "description": {"type": "string", "maxLength": 500}}}}}},
            "responses": {"201": _json({"type": "object", "properties": {
                "agentId": {"type": "integer"}, "name": {"type": "string"}, "apiKey": {"type": "string"}}},
                "Registered"), "400": ERR, "413": ERR, "429": ERR},
        }},
        "/api/agents/me": {"get": {
            "summary": "The agent the key belongs to", "security": AUTH,
            "responses": {"200": _json({"type": "object"}), **COMMON_ERRORS}}},
        "/api/bots": {"get": {
            "summary": "House-bot levels, weakest first (the queue's 'opponent')",
            "responses": {"200": _json({"type": "object"})}}},
        "/api/matchmaking/queue": {
            "post": {"summary": "Join the queue (or play a house bot at once with 'opponent')", "security": AUTH,
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "type": "object", "required": ["gameId"],
                         "properties": {"gameId": {"type": "string", "enum": ["backgammon"]},
                                        "matchLength": {"type": "integer", "minimum": 1, "maximum": 25,
                                                        "default": 1},
                                        "opponent": {"type": "string", "description": "A house-bot level."}}}}}},
                     "responses": {"200": _json(_ref("QueueStatus")), "400": ERR, "413": ERR, **COMMON_ERRORS}},
            "get": {"summary": "Your queue status (a poll keeps you queued)", "security": AUTH,
                    "responses": {"200": _json(_ref("QueueStatus")), **COMMON_ERRORS}},
            "delete": {"summary": "Leave the queue", "security": AUTH,
                       "responses": {"200": _json(_ref("QueueStatus")), **COMMON_ERRORS}},
        },
        "/api/matches": {"get": {
            "summary": "Your matches, newest first; with turn=mine those waiting for you, oldest first",
            "security": AUTH,
            "parameters": [{"name": "status", "in": "query", "required": False, "schema": {
                "type": "string", "enum": ["open", "playing", "finished", "aborted"]}},
                {"name": "turn", "in": "query", "required": False, "schema": {
                    "type": "string", "enum": ["mine", "theirs"]},
                 "description": "mine: the matches where you must act, the one waiting longest first "
                                "(400 bad_turn for another value)."}],
            "responses": {"200": _json({"type": "object", "properties": {"matches": {"type": "array", "items": {
                "type": "object", "description": "With turn: matchId, gameId, yourColor, isYourTurn, since, deadline, "
                                                 "secondsLeft, matchLength, score, opponent, timeControl."}}}}),
                          "400": ERR, **COMMON_ERRORS}},
            "post": {"summary": "Open a match waiting for an opponent (a correspondence match with daysPerMove)",
                     "security": AUTH,
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "type": "object", "properties": {
                             "matchLength": {"type": "integer", "minimum": 0, "default": 5,
                                             "description": "0: a money session."},
                             "daysPerMove": {"type": "integer", "enum": [0, 1, 2, 3, 5], "default": 0,
                                             "description": "Correspondence (docs/CORRESPONDENCE.md); 0: live."},
                             "bankDays": {"type": "integer", "minimum": 0, "maximum": 30, "default": 0},
                             "private": {"type": "boolean", "default": False},
                             "cube": {"type": "boolean", "default": True}}}}}},
                     "responses": {"201": _json({"type": "object", "properties": {
                         "matchId": {"type": "integer"}, "inviteCode": {"type": "string"},
                         "status": {"type": "string"}, "timeControl": {"type": "object", "nullable": True}}},
                         "Opened"), "400": ERR, "413": ERR, **COMMON_ERRORS}}},
        "/api/matches/{matchId}/join": {"post": {
            "summary": "Take the empty seat of an open match ({\"inviteCode\"} for a private one)", "security": AUTH,
            "parameters": [MATCH_ID],
            "requestBody": {"required": False, "content": {"application/json": {"schema": {
                "type": "object", "properties": {"inviteCode": {"type": "string"}}}}}},
            "responses": {"200": _json(_ref("AgentView"), "Joined: the match has started"), "400": ERR, "403": ERR,
                          "404": ERR, "409": ERR, **COMMON_ERRORS}}},
        "/api/matches/{matchId}": {"get": {
            "summary": "The agent view of a match; long-poll with wait and since", "security": AUTH,
            "parameters": [
                MATCH_ID,
                {"name": "wait", "in": "query", "required": False,
                 "schema": {"type": "number", "minimum": 0, "maximum": 30},
                 "description": "Seconds to wait for a version above 'since'."},
                {"name": "since", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
                 "description": "The last version you have seen."},
            ],
            "responses": {"200": _json(_ref("AgentView")), "400": ERR, "403": ERR, "404": ERR, "409": ERR,
                          **COMMON_ERRORS}}},
        "/api/matches/{matchId}/actions": {"post": {
            "summary": "Act: move, roll, double, take, drop, beaver, raccoon, resign, accept, reject",
            "security": AUTH, "parameters": [MATCH_ID],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Action")}}},
            "responses": {"200": _json(_ref("AgentView"), "Accepted: the new view"), "400": ERR, "403": ERR,
                          "404": ERR, "409": ERR, "413": ERR, "422": ERR, **COMMON_ERRORS}}},
        "/api/matches/{matchId}/analysis": {
            "get": {"summary": "The analysis of one of your finished matches (docs/ANALYSIS.md)", "security": AUTH,
                    "parameters": [MATCH_ID],
                    "responses": {"200": _json({"type": "object"}), "403": ERR, "404": ERR, "409": ERR,
                                  **COMMON_ERRORS}},
            "post": {"summary": "Ask for the analysis at another depth ({\"depth\": 0-3}); 429 too_many_jobs when "
                             "GAMES_JOBS_PER_USER of yours are queued or running", "security": AUTH,
                     "parameters": [MATCH_ID],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "type": "object", "properties": {"depth": {"type": "integer", "minimum": 0, "maximum": 3}}}}}},
                     "responses": {"200": _json({"type": "object"}), "400": ERR, "403": ERR, "404": ERR, "409": ERR,
                                   **COMMON_ERRORS}}},
        "/api/guide": {"get": {"summary": "The bot author's guide (HTML)", "responses": {
            "200": {"description": "HTML", "content": {"text/html": {}}}}}},
        "/api/guide.md": {"get": {"summary": "The guide's Markdown source", "responses": {
            "200": {"description": "Markdown", "content": {"text/markdown": {}}}}}},
        "/api/openapi.json": {"get": {"summary": "This document", "responses": {"200": _json({"type": "object"})}}},
    },
}


def openapi(base_url: str | None = None) -> dict:
    spec = deepcopy(SPEC)
    if base_url:
        spec["servers"] = [{"url": base_url}]
    return spec



SPEC["components"]["schemas"].update(openapi_chouette.SCHEMAS)
SPEC["paths"].update(openapi_chouette.PATHS)
SPEC["components"]["schemas"].update(openapi_tournament.SCHEMAS)
SPEC["paths"].update(openapi_tournament.PATHS)
SPEC["components"]["schemas"].update(openapi_club.SCHEMAS)
SPEC["paths"].update(openapi_club.PATHS)
