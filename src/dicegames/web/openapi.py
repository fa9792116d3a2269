"""The OpenAPI 3.1 description of the JSON API, served at ``/api/openapi.json``.

Written by hand next to the routes (``api.py``); a test checks that every route of the app
is described here and every described path exists. ``docs/web-api.md`` explains the same API
in prose, with the websocket protocol, which OpenAPI cannot describe.
"""

from __future__ import annotations

from typing import Any

from dicegames.core.names import MAX_NAME
from dicegames.core.record import FORMAT, MAX_MOVE_TEXT, MAX_MOVES
from dicegames.core.session import DICE_MODES


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    why = {400: "malformed JSON or fields", 403: "wrong seat token, or a foreign Origin",
           404: "unknown match, game or step; no open table of that id",
           409: "out of turn, stale expect, game over, a stored match this version cannot "
                "rebuild or whose stored rows are damaged, a table with no free seat left",
           413: "body over the size limit", 415: "a body not sent as application/json",
           422: "unknown game or option, illegal move, bad record",
           429: "rate_limited: too many requests of this kind from the client's address; "
                "too_busy: too many hints and reviews of this client in progress "
                "(Retry-After: seconds to wait; see Limits in docs/web-api.md)",
           500: "a fault of the server (a hint bot that failed)",
           503: "store_busy: the database could not be written in time (another program "
                "holds it locked; nothing was changed); busy: every analysis worker stayed "
                "busy for the hint's budget (Retry-After: seconds to wait)"}
    return {str(status): _json(_ref("Error"), why[status]) for status in statuses}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}
_POSTED = (400, 403, 413, 415, 503)
"""What any POST may answer: bad JSON, a foreign Origin, too big, not JSON, the database
busy."""
_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
_ACK = _json(_ref("Ack"), "committed: the move is stored before this answer")
_TOKENED: dict[str, Any] = {"type": "object", "required": ["token"],
            "properties": {"token": {"type": "string"},
                           "expect": {"type": "integer",
                                      "description": "refuse (409) unless the match is at "
                                                     "this version"}}}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "dicegames web API", "version": "1",
             "description": "Create matches, read their state with the legal choices in "
                            "notation, act with a seat token, fetch records. Live updates: "
                            "websocket /ws/matches/{id}?token=... (see docs/web-api.md)."},
    "paths": {
        "/api/games": {"get": {"summary": "The games with their options and bot levels",
                               "responses": {"200": _json({"type": "object"}, "the games")}}},
        "/api/games/{game_id}": {"get": {
            "summary": "One game, with its rules page as Markdown and HTML",
            "parameters": [{"name": "game_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object"}, "the game"), **_errors(404)}}},
        "/api/games/{game_id}/sample": {"get": {
            "summary": "A sample position of the game (a seeded game of random bots, a third "
                       "of the way through), as the replay page's states: the home page draws "
                       "each game's card with it",
            "parameters": [{"name": "game_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": _json(_ref("State"), "the sample position"),
                          **_errors(404)}}},
        "/api/games/{game_id}/howto": {"get": {
            "summary": "The game's family summary (How to play) in the asked language: "
                       "paragraphs as HTML and pictures as board states to draw",
            "parameters": [{"name": "game_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object"}, "the summary"),
                          **_errors(404)}}},
        "/api/matches": {"post": {
            "summary": "Create a match; the answer holds each person's secret seat link",
            "requestBody": _body(_ref("NewMatch")),
            "responses": {"201": _json({"type": "object"}, "the match's links and state"),
                          **_errors(*_POSTED, 422, 429)}}},
        "/api/matches/{match_id}": {"get": {
            "summary": "The state as a viewer sees it (token: seat tokens, comma-separated)",
            "parameters": [_MATCH_ID, {"name": "token", "in": "query", "required": False,
                                       "schema": {"type": "string"}}],
            "responses": {"200": _json(_ref("State"), "the state"),
                          **_errors(403, 404, 409)}}},
        "/api/matches/{match_id}/actions": {"post": {
            "summary": "Act for the seat the token holds (move in notation)",
            "parameters": [_MATCH_ID],
            "requestBody": _body({**_TOKENED, "required": ["token", "move"],
                                  "properties": {**_TOKENED["properties"],
                                                 "move": {"type": "string"}}}),
            "responses": {"200": _ACK, **_errors(*_POSTED, 404, 409, 422)}}},
        "/api/matches/{match_id}/dice": {"post": {
            "summary": "Enter physical dice (manual dice; any person's seat token)",
            "parameters": [_MATCH_ID],
            "requestBody": _body({**_TOKENED, "required": ["token", "dice"],
                                  "properties": {**_TOKENED["properties"],
                                                 "dice": {"type": "string"}}}),
            "responses": {"200": _ACK, **_errors(*_POSTED, 404, 409, 422)}}},
        "/api/matches/{match_id}/undo": {"post": {
            "summary": "Take back the token holder's own last decision",
            "parameters": [_MATCH_ID], "requestBody": _body(_TOKENED),
            "responses": {"200": _ACK, **_errors(*_POSTED, 404, 409)}}},
        "/api/matches/{match_id}/again": {"post": {
            "summary": "Play again: the same seats in a new match, created by the first "
                       "person to ask (any device) and found by every later one; the answer "
                       "holds the new tokens of the asker's own seats only",
            "parameters": [_MATCH_ID],
            "requestBody": _body({"type": "object", "properties": {
                "token": {"type": "string", "description": "one seat token"},
                "tokens": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                           "maxItems": 16,
                           "description": "every seat token the device holds"}}}),
            "responses": {"201": _json({"type": "object"}, "the rematch, just created: its "
                                       "id and the asker's seats with their tokens and "
                                       "links"),
                          "200": _json({"type": "object"}, "the rematch someone created "
                                       "before"),
                          **_errors(*_POSTED, 404, 409)}}},
        "/api/matches/{match_id}/hint": {"get": {
            "summary": "What to play for the token's seat, which must be deciding now, found "
                       "within 2 s, with its estimated win chance (asking changes nothing)",
            "parameters": [_MATCH_ID, {"name": "token", "in": "query", "required": True,
                                       "schema": {"type": "string"}}],
            "responses": {"200": _json(_ref("Hint"), "the suggested move"),
                          **_errors(403, 404, 409, 429, 500, 503)}}},
        "/api/matches/{match_id}/review": {"get": {
            "summary": "The review of a finished match so far: each decision's win chances, "
                       "the flagged mistakes, the win-chance curve (started on first asking; "
                       "ask again until status is done)",
            "parameters": [_MATCH_ID],
            "responses": {"200": _json({"type": "object", "required": ["status", "moves",
                                                                        "curve"]},
                                       "the review so far"), **_errors(404, 409, 429)}},
            "delete": {
                "summary": "Stop the match's review (asking for it again resumes it)",
                "parameters": [_MATCH_ID],
                "responses": {"200": _json({"type": "object", "required": ["status"]},
                                           "the review so far, cancelled"),
                              **_errors(403, 404)}}},
        "/api/matches/{match_id}/qr": {"get": {
            "summary": "The QR code of one seat's link (for a phone at the same table), as "
                       "SVG; only for a seat token of this match, which the asker holds",
            "parameters": [_MATCH_ID, {"name": "token", "in": "query", "required": True,
                                       "schema": {"type": "string"}}],
            "responses": {"200": {"description": "the QR code",
                                  "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                          **_errors(400, 403, 404, 409)}}},
        "/api/matches/{match_id}/record": {"get": {
            "summary": "The match's record (dicegames-record JSON, as `dicegames replay` reads)",
            "parameters": [_MATCH_ID],
            "responses": {"200": _json(_ref("Record"), "the record"), **_errors(404, 409)}}},
        "/api/matches/{match_id}/states/{step}": {"get": {
            "summary": "The state after `step` moves, for replays",
            "parameters": [_MATCH_ID, {"name": "step", "in": "path", "required": True,
                                       "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": _json(_ref("State"), "the state"), **_errors(404, 409)}}},
        "/api/tables": {"get": {
            "summary": "Open tables: matches whose creator marked them open, with a free "
                       "invited seat, set up in the last 24 hours, newest first (at most 50); "
                       "no tokens",
            "parameters": [{"name": "lang", "in": "query", "required": False,
                            "schema": {"type": "string"},
                            "description": "the language of the option labels (en, fr, de, "
                                           "it; else Accept-Language)"}],
            "responses": {"200": _json({"type": "object", "required": ["tables", "limit"],
                                        "properties": {"tables": {"type": "array",
                                                                  "items": _ref("Table")},
                                                       "limit": {"type": "integer"}}},
                                       "the open tables")}}},
        "/api/tables/{match_id}/join": {"post": {
            "summary": "Take a free invited seat of an open table: the answer holds the "
                       "seat's secret token and link, handed out once",
            "parameters": [_MATCH_ID],
            "requestBody": _body({"type": "object", "required": ["name"],
                                  "properties": {"name": _NAME}}),
            "responses": {"200": _json({"type": "object",
                                        "required": ["id", "seat", "name", "token", "link"],
                                        "properties": {"id": {"type": "string"},
                                                       "seat": {"type": "integer"},
                                                       "name": {"type": "string"},
                                                       "token": {"type": "string"},
                                                       "link": {"type": "string"}}},
                                       "the seat taken"),
                          **_errors(*_POSTED, 404, 409, 422, 429)}}},
        "/api/lan": {"get": {
            "summary": "The home page's address on the network, which phones open "
                       "(dicegames serve --lan), or null when the server listens on this "
                       "computer only",
            "responses": {"200": _json({"type": "object", "required": ["url"],
                                        "properties": {"url": {"type": ["string", "null"]}}},
                                       "the address phones open")}}},
        "/api/lan/qr": {"get": {
            "summary": "The QR code of the home page's address on the network, as SVG "
                       "(no token in it)",
            "responses": {"200": {"description": "the QR code",
                                  "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                          **_errors(404)}}},
        "/api/replays": {"post": {
            "summary": "Upload a record to replay it (checked move by move, within the "
                       "limits of docs/security.md)",
            "requestBody": _body(_ref("Record")),
            "responses": {"201": _json({"type": "object", "required": ["id", "replay", "moves"],
                                        "properties": {"id": {"type": "string"},
                                                       "replay": {"type": "string"},
                                                       "moves": {"type": "integer"}}},
                                       "the replay's id and page"),
                          **_errors(*_POSTED, 422, 429)}}},
    },
    "components": {"schemas": {
        "Error": {"type": "object", "required": ["error", "message"],
                  "properties": {"error": {"type": "string"}, "message": {"type": "string"},
                                 "detail": {"type": "string"}}},
        "Ack": {"type": "object", "properties": {"ok": {"type": "boolean"},
                                                 "version": {"type": "integer"}}},
        "Hint": {"type": "object", "properties": {
            "seat": {"type": "integer"}, "version": {"type": "integer"},
            "revision": {"type": "integer", "description": "the state's revision it holds for"},
            "move": {"type": "string", "description": "in notation, one of the seat's hints"},
            "label": {"type": "string", "description": "the move's button text"},
            "bot": {"type": "string", "description": "the bot level that chose it (the "
                    "rollouts' bot when the hint bot ran out of time)"},
            "estimate": {"type": ["number", "null"], "description": "the seat's estimated "
                         "win chance after the move (null: no rollout finished in time)"},
            "interval": {"type": "array", "items": {"type": "number"},
                         "description": "its 95% interval [low, high]"},
            "rollouts": {"type": "integer", "description": "games played after the move"},
            "exact": {"type": "boolean", "description": "the solved game's chance"},
            "complete": {"type": "boolean", "description": "the hint bot answered and every "
                         "choice got its full count of rollouts in time"}}},
        "NewMatch": {"type": "object", "required": ["game", "players"], "properties": {
            "game": {"type": "string", "description": "a game id or alias"},
            "players": {"type": "array", "minItems": 1, "items": {
                "type": "object", "properties": {
                    "name": _NAME,
                    "kind": {"type": "string", "description": "human or bot:<level>"},
                    "invited": {"type": "boolean", "description": "a person invited by a "
                                "link (an open table offers these seats)"}}}},
            "options": {"type": "object"},
            "open": {"type": "boolean", "description": "list the match in the lobby while "
                     "an invited seat is free (default false: private)"},
            "dice": {"enum": list(DICE_MODES)},
            "seed": {"type": "integer", "description": (
                "dice seeded by the creator, for reproducible games: the match shows everyone "
                "fair.seeded_by = creator; refused on an open table (422 seeded_table). "
                "Without it the server draws a secret and publishes only its commitment")},
            "position": {"type": "string", "maxLength": 2000,
                         "description": "start from this position (the game's position "
                                        "notation, see Positions on its rules page); 422 "
                                        "bad_position when the game refuses it"}}},
        "Record": {"type": "object", "description": "a dicegames record, as `dicegames "
                   "replay` reads (see docs/architecture.md)",
                   "required": ["format", "version", "game", "options", "players", "moves"],
                   "properties": {
                       "format": {"const": FORMAT}, "version": {"type": "integer"},
                       "game": {"type": "string"}, "options": {"type": "object"},
                       "players": {"type": "array", "items": {
                           "type": "object", "required": ["name"],
                           "properties": {"name": _NAME, "kind": {"type": "string"}}}},
                       "seed": {"type": ["integer", "null"], "minimum": -(2**63),
                                "maximum": 2**63 - 1},
                       "moves": {"type": "array", "maxItems": MAX_MOVES, "items": {
                           "type": "string", "maxLength": MAX_MOVE_TEXT}},
                       "dice": {"enum": [*DICE_MODES, None]},
                       "position": {"type": ["string", "null"]},
                       "result": {"type": ["object", "null"]},
                       "fair": {"$ref": "#/components/schemas/Fair"}}},
        "Fair": {"type": ["object", "null"], "description": "a web match's dice commitment "
                 "(see docs/web-api.md, Provably fair dice); the secret is null until the "
                 "game is over", "properties": {
                     "scheme": {"enum": ["hmac-sha256/1", "seed/1"]},
                     "commitment": {"type": ["string", "null"], "pattern": "^[0-9a-f]{64}$"},
                     "seeded_by": {"enum": ["server", "creator"]},
                     "secret": {"type": ["string", "null"], "pattern": "^[0-9a-f]{64}$"}}},
        "Table": {"type": "object", "required": ["id", "game", "seats", "free", "taken"],
                  "properties": {
                      "id": {"type": "string"}, "game": {"type": "object"},
                      "options": {"type": "array", "description": "the options that differ "
                                  "from the defaults: name, label, kind, value"},
                      "seats": {"type": "array", "items": {"type": "object", "properties": {
                          "seat": {"type": "integer"}, "name": {"type": "string"},
                          "kind": {"enum": ["human", "bot"]}, "free": {"type": "boolean"}}}},
                      "free": {"type": "integer"}, "taken": {"type": "integer"},
                      "host": {"type": ["string", "null"],
                               "description": "the creator's name (their first seat)"},
                      "created": {"type": "number"},
                      "age": {"type": "integer", "description": "seconds since creation"}}},
        "State": {"type": "object", "description": "see docs/web-api.md", "properties": {
            "id": {"type": "string"}, "game": {"type": "object"},
            "players": {"type": "array"}, "options": {"type": "object"},
            "dice_mode": {"enum": [*DICE_MODES, "record"]},
            "status": {"enum": ["playing", "finished", "record", "replay"]},
            "version": {"type": "integer"}, "revision": {"type": "integer"},
            "node": {"type": "object"}, "view": {"type": "object"},
            "text": {"type": ["string", "null"],
                     "description": "the board as text, for games without a board module"},
            "log": {"type": "array"}, "result": {"type": ["object", "null"]},
            "outcomes": {"type": ["array", "null"]}, "you": {"type": "array"},
            "fair": {"$ref": "#/components/schemas/Fair"},
            "presence": {"type": "object", "description": "each person's seat (by number):"
                         " connected, invited (not yet joined) or away",
                         "additionalProperties": {"enum": ["connected", "invited", "away"]}},
            "hints": {"type": "object"}, "can_undo": {"type": "boolean"},
            "undo_seat": {"type": ["integer", "null"]},
            "can_enter_dice": {"type": "boolean"},
            "rematch": {"type": ["string", "null"],
                        "description": "the id of the match its players play again in, "
                                       "once one of them asked (POST .../again)"}}},
    }},
}
