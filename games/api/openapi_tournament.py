"""The tournament part of the OpenAPI document (merged into ``games.api.openapi.SPEC``)."""

from __future__ import annotations

from games.api.schema import AUTH, ERR, json_body, ref
from games.clock import CLOCK_PRESETS

TOURNAMENT_ID = {"name": "tournamentId", "in": "path", "required": True, "schema": {"type": "integer"}}
COMMON = {"401": ERR, "404": ERR, "429": ERR}
PLAYER = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}

SUMMARY = {
    "type": "object", "description": "A tournament (docs/TOURNAMENTS.md).",
    "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"},
        "format": {"type": "string", "enum": ["knockout", "double", "swiss", "roundrobin", "groups", "arena"]},
        "formatName": {"type": "string", "description": "The format's name in the reader's language."},
        "status": {"type": "string", "enum": ["registering", "running", "finished", "cancelled"]},
        "statusName": {"type": "string", "description": "The status in the reader's language."},
        "options": {"type": "object", "description": "The format's options (lengths, seeding, rounds...) and the "
                                                     "site's (cube, crawford, rated, minutes)."},
        "startsAt": {"type": "string", "nullable": True}, "roundDeadlineHours": {"type": "integer"},
        "maxEntrants": {"type": "integer", "nullable": True}, "entrants": {"type": "integer"},
        "winner": {**PLAYER, "nullable": True}, "createdAt": {"type": "string"},
        "startedAt": {"type": "string", "nullable": True}, "finishedAt": {"type": "string", "nullable": True},
        "version": {"type": "integer", "description": "Bumped by every change."},
        "club": {**PLAYER, "nullable": True, "description": "The club it is run for (its owners direct it)."},
        "paused": {"type": "boolean"},
        "ratingBand": {"type": "array", "items": {"type": "integer", "nullable": True},
                       "description": "[lowest, highest] rating that may enter (null: no bound)."},
        "checkInMinutes": {"type": "integer"}, "lateEntries": {"type": "boolean"},
        "correspondence": {"type": "object", "properties": {"days": {"type": "integer"},
                                                            "bankDays": {"type": "integer"}}},
        "clock": {"type": "object", "nullable": True, "description": "The live clock preset of its matches "
                  "(null: no clock).", "properties": {
                      "preset": {"type": "string", "enum": list(CLOCK_PRESETS)},
                      "label": {"type": "string", "description": "Its name in the reader's language."},
                      "delay": {"type": "integer"}, "bankPerPoint": {"type": "integer"}}},
    },
}

DETAIL = {
    "type": "object", "description": "A tournament with its entrants, standings, bracket and matches.",
    "allOf": [ref("TournamentSummary")],
    "properties": {
        "entrantList": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "rating": {"type": "integer"},
            "isBot": {"type": "boolean"}, "status": {"type": "string", "enum": ["entered", "waiting", "withdrawn", "disqualified", "removed"]},
            "seed": {"type": "integer", "nullable": True}}}},
        "standings": {"type": "array", "items": {"type": "object", "description": "rank (null: not decided), "
                      "player, name, score, wins, losses, byes, buchholz, headToHead, pointsDiff, status, pr "
                      "(the player's PR in the event, null before an analysis)"}},
        "bracket": {"type": "array", "items": {"type": "object"}, "description": "Bracket formats: every match "
                    "with key, label, round, a, b, aFrom, bFrom, status, winner (and the names)."},
        "matches": {"type": "array", "items": {"type": "object", "properties": {
            "key": {"type": "string"}, "label": {"type": "string"}, "round": {"type": "integer"},
            "matchId": {"type": "integer"}, "status": {"type": "string"}, "white": {"type": "object"},
            "black": {"type": "object"}, "length": {"type": "integer"},
            "winner": {"type": "integer", "nullable": True}, "endReason": {"type": "string", "nullable": True},
            "deadline": {"type": "string", "nullable": True}, "replaced": {"type": "boolean"},
            "forced": {"type": "string", "nullable": True}, "url": {"type": "string"},
            "mat": {"type": "string", "nullable": True, "description": "The .mat file (a finished match with a move)."},
            "analysis": {"type": "object", "nullable": True, "properties": {
                "id": {"type": "integer"}, "status": {"type": "string"}, "depth": {"type": "integer"},
                "url": {"type": "string"}, "whitePr": {"type": "number", "nullable": True},
                "blackPr": {"type": "number", "nullable": True}, "whiteDecisions": {"type": "integer"},
                "blackDecisions": {"type": "integer"}}}}}},
        "prTable": {"type": "array", "description": "The PR table of the event, best PR first.",
                    "items": {"type": "object", "properties": {
                        "player": {"type": "integer"}, "name": {"type": "string"},
                        "pr": {"type": "number", "nullable": True}, "decisions": {"type": "integer"},
                        "analysed": {"type": "integer"}, "played": {"type": "integer"}}}},
        "directors": {"type": "array", "items": {"type": "string"}},
        "waitingList": {"type": "array", "items": PLAYER, "description": "In the order they are promoted."},
        "pending": {"type": "array", "items": {"type": "object"}, "description": "The undecided pairings (key, "
                    "label, a, aName, b, bName): what a director may award."},
        "log": {"type": "array", "items": {"type": "object", "properties": {
            "at": {"type": "string"}, "action": {"type": "string", "enum": [
                "pause", "resume", "withdraw", "disqualify", "award", "repair", "not_checked_in", "promoted"]},
            "text": {"type": "string"}, "by": {"type": "string", "nullable": True},
            "player": {**PLAYER, "nullable": True}, "key": {"type": "string", "nullable": True},
            "reason": {"type": "string", "nullable": True}}}},
        "you": {"type": "object", "properties": {
            "entered": {"type": "boolean"}, "canEnter": {"type": "boolean"}, "canWithdraw": {"type": "boolean"},
            "isDirector": {"type": "boolean"}, "waiting": {"type": "boolean"}, "checkedIn": {"type": "boolean"},
            "canCheckIn": {"type": "boolean"},
            "nextMatch": {"type": "integer", "nullable": True, "description": "Your match being played."}}},
    },
}

CREATE = {
    "type": "object", "required": ["name", "format"], "additionalProperties": False,
    "description": "The rules, as the tournament's page shows them (docs/BOT_API.md, \"Creating one\").",
    "properties": {
        "name": {"type": "string", "maxLength": 80}, "format": SUMMARY["properties"]["format"],
        "length": {"type": "integer", "minimum": 1, "maximum": 99, "default": 7},
        "options": SUMMARY["properties"]["options"], "startsAt": {"type": "string", "format": "date-time"},
        "roundDeadlineHours": {"type": "integer", "default": 0}, "maxEntrants": {"type": "integer"},
        "ratingBand": SUMMARY["properties"]["ratingBand"], "checkInMinutes": {"type": "integer", "default": 0},
        "lateEntries": {"type": "boolean", "default": False},
        "correspondence": SUMMARY["properties"]["correspondence"],
        "clock": {"type": "string", "enum": list(CLOCK_PRESETS)},
        "club": {"type": "integer", "description": "The club it is for (you own it); none: the site's (staff)."}},
}

SCHEMAS = {"TournamentSummary": SUMMARY, "Tournament": DETAIL}
VIEW = json_body(ref("Tournament"))

PATHS = {
    "/api/tournaments": {"get": {
        "summary": "Tournaments, the newest first", "security": AUTH,
        "parameters": [{"name": "status", "in": "query", "required": False,
                        "schema": {"type": "string", "enum": ["upcoming", "running", "finished"]}},
                       {"name": "club", "in": "query", "required": False, "schema": {"type": "integer"},
                        "description": "Only this club's tournaments (404 club_not_found)."}],
        "responses": {"200": json_body({"type": "object", "properties": {
            "tournaments": {"type": "array", "items": ref("TournamentSummary")}}}), "400": ERR, "401": ERR,
            "404": ERR, "429": ERR}},
        "post": {
            "summary": "Create a tournament: a club's (its owners) or the site's (staff)", "security": AUTH,
            "requestBody": {"required": True, "content": {"application/json": {"schema": CREATE}}},
            "responses": {"201": VIEW, "400": ERR, "401": ERR, "403": ERR, "404": ERR, "413": ERR, "429": ERR}}},
    "/api/tournaments/{tournamentId}": {"get": {
        "summary": "One tournament: rules, entrants, standings, bracket, matches, what you may do",
        "security": AUTH, "parameters": [TOURNAMENT_ID], "responses": {"200": VIEW, **COMMON}}},
    "/api/tournaments/{tournamentId}/entries": {
        "post": {"summary": "Enter the tournament", "security": AUTH, "parameters": [TOURNAMENT_ID],
                 "responses": {"201": VIEW, "403": ERR, "409": ERR, **COMMON}},
        "delete": {"summary": "Withdraw (once running, your match being played is forfeited)", "security": AUTH,
                   "parameters": [TOURNAMENT_ID], "responses": {"200": VIEW, "409": ERR, **COMMON}}},
    "/api/tournaments/{tournamentId}/check-in": {"post": {
        "summary": "Check in before the start", "security": AUTH, "parameters": [TOURNAMENT_ID],
        "responses": {"200": VIEW, "409": ERR, **COMMON}}},
    "/api/tournaments/{tournamentId}/director": {"post": {
        "summary": "A director's action: pause, resume, withdraw, disqualify, award, repair (logged)",
        "security": AUTH, "parameters": [TOURNAMENT_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "properties": {
            "action": {"type": "string", "enum": ["pause", "resume", "withdraw", "disqualify", "award", "repair"]},
            "player": {"type": "integer", "description": "withdraw, disqualify: the player"},
            "key": {"type": "string", "description": "award: the pairing's key"},
            "winner": {"type": "integer", "description": "award: the winner"},
            "reason": {"type": "string", "maxLength": 200}}, "required": ["action"]}}}},
        "responses": {"200": VIEW, "400": ERR, "403": ERR, "409": ERR, **COMMON}}},
}
