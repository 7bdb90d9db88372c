"""The club part of the OpenAPI document (merged into ``games.api.openapi.SPEC``)."""

from __future__ import annotations

from games.api.schema import AUTH, ERR, json_body, ref

CLUB_ID = {"name": "clubId", "in": "path", "required": True, "schema": {"type": "integer"}}
COMMON = {"401": ERR, "404": ERR, "429": ERR}
SIDE = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                         "position": {"type": "integer", "description": "The place when challenging."}}}

SUMMARY = {
    "type": "object", "description": "A club (docs/CLUBS.md).",
    "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "description": {"type": "string"},
        "members": {"type": "integer"},
        "ladderReach": {"type": "integer", "description": "How many places above your own you may challenge."},
        "matchLength": {"type": "integer", "description": "A challenge's match length."},
        "challengeHours": {"type": "integer", "description": "Hours to play a challenge before the absent forfeit."},
        "createdAt": {"type": "string"}, "isMember": {"type": "boolean", "description": "In the list only."},
    },
}

CHALLENGE = {
    "type": "object", "description": "A ladder challenge, played as the match matchId.",
    "properties": {
        "id": {"type": "integer"}, "status": {"type": "string", "enum": ["open", "played", "void"]},
        "matchId": {"type": "integer"}, "matchStatus": {"type": "string"},
        "challenger": SIDE, "defender": SIDE, "length": {"type": "integer"},
        "score": {"type": "array", "items": {"type": "integer"}, "description": "Challenger's, defender's."},
        "winner": {"type": "integer", "nullable": True},
        "swapped": {"type": "boolean", "description": "The challenger won and took the defender's place."},
        "endReason": {"type": "string", "nullable": True}, "deadline": {"type": "string"},
        "createdAt": {"type": "string"}, "finishedAt": {"type": "string", "nullable": True},
    },
}

DETAIL = {
    "type": "object", "description": "A club with its members in ladder order, challenges and tournaments.",
    "allOf": [ref("ClubSummary")],
    "properties": {
        "memberList": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "role": {"type": "string", "enum": ["owner", "member"]},
            "position": {"type": "integer"}, "rating": {"type": "integer"}, "experience": {"type": "integer"},
            "matchesPlayed": {"type": "integer"}, "matchesWon": {"type": "integer"}, "isBot": {"type": "boolean"},
            "pr": {"type": "number", "nullable": True, "description": "Average PR of analysed matches (null: none)."},
            "joinedAt": {"type": "string"}}}},
        "owners": {"type": "array", "items": {"type": "string"}},
        "openChallenges": {"type": "array", "items": ref("ClubChallenge")},
        "recentChallenges": {"type": "array", "items": ref("ClubChallenge")},
        "tournaments": {"type": "array", "items": {"type": "object"}},
        "inviteToken": {"type": "string", "description": "Owners only."},
        "you": {"type": "object", "properties": {
            "isMember": {"type": "boolean"}, "isOwner": {"type": "boolean"},
            "position": {"type": "integer", "nullable": True}, "busy": {"type": "boolean"},
            "canChallenge": {"type": "array", "items": {"type": "integer"}, "description": "Player ids."}}},
    },
}

SCHEMAS = {"ClubSummary": SUMMARY, "Club": DETAIL, "ClubChallenge": CHALLENGE}
VIEW = json_body(ref("Club"))


def _body(name: str, schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": [name], "properties": {name: schema}}}}}


PATHS = {
    "/api/clubs": {"get": {
        "summary": "Clubs, yours first", "security": AUTH,
        "responses": {"200": json_body({"type": "object", "properties": {
            "clubs": {"type": "array", "items": ref("ClubSummary")}}}), "401": ERR, "429": ERR}}},
    "/api/clubs/join": {"post": {
        "summary": "Join the club of an invite token", "security": AUTH,
        "requestBody": _body("token", {"type": "string"}),
        "responses": {"201": VIEW, "400": ERR, "403": ERR, "409": ERR, **COMMON}}},
    "/api/clubs/{clubId}": {"get": {
        "summary": "One club: members with ratings and PR, the ladder, challenges, tournaments",
        "security": AUTH, "parameters": [CLUB_ID], "responses": {"200": VIEW, **COMMON}}},
    "/api/clubs/{clubId}/membership": {"delete": {
        "summary": "Leave the club (an open challenge of yours is forfeited)", "security": AUTH,
        "parameters": [CLUB_ID], "responses": {"200": VIEW, "403": ERR, "409": ERR, **COMMON}}},
    "/api/clubs/{clubId}/challenges": {"post": {
        "summary": "Challenge a member above you on the ladder", "security": AUTH, "parameters": [CLUB_ID],
        "requestBody": _body("defender", {"type": "integer", "description": "The member's player id."}),
        "responses": {"201": json_body(ref("ClubChallenge")), "400": ERR, "403": ERR, "409": ERR, **COMMON}}},
}
