"""The OpenAPI document, made to tell the truth about what each route takes and answers.

Litestar derives most of the document from the routes' annotations. The routes that read their
body themselves (to answer with precise codes) are described here: creating a game (one schema
per game, with its seat range, AI levels and typed options), sending a command (the commands of
every game), importing a log, and a table's chat. Every refusal each route can answer is listed
with its body `{code, message}`; headers the routes read are declared with their patterns;
integers get the bounds the server takes; structs that refuse unknown fields say so.

What the schema promises: a request that matches it is never answered 400. A 422 means it
matched the schema but the game refuses it (a rule, a seat count, an option's value).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import msgspec

from app.api import accounts
from app.api.callers import BEARER
from app.api.projection import api_types
from app.api.tables import Join
from app.commands.catalogue import Catalogue
from app.commands.seats import NAME_LENGTH
from app.commands.service import Seed
from app.people.chat import TEXT_LENGTH
from app.people.hosting import OpenTable
from app.store.chat import ChatMessage
from domain.game import AnyGame

INT64 = (-(2**63), 2**63 - 1)
IDEMPOTENCY_KEY = r"^[A-Za-z0-9_.:-]{1,128}$"
LAST_EVENT_ID = r"^[0-9]{1,18}$"
#: Where a stream resumes: a version, or empty (as absent: from the start).
RESUME = r"^[0-9]{0,18}$"


def _refused_ranges() -> str:
    """The character class of what a name may not hold: control, format (bidi overrides,
    zero-width), line and paragraph separators in the Basic Multilingual Plane (as
    `app.commands.seats.check_name` refuses them; a lone surrogate is no valid JSON text at all)."""
    ranges, start = [], None
    for point in range(0x10000):
        refused = unicodedata.category(chr(point)) in {"Cc", "Cf", "Zl", "Zp"}
        if refused and start is None:
            start = point
        elif not refused and start is not None:
            ranges.append((start, point - 1))
            start = None
    return "".join(f"\\u{a:04x}-\\u{b:04x}" if a != b else f"\\u{a:04x}" for a, b in ranges)


NAME_PATTERN = f"^[^{_refused_ranges()}]*$"
#: What the patterns cannot say: they name the Basic Multilingual Plane only (an ECMA-262 pattern
#: without the `u` flag reads a character of another plane as two surrogates).
PLANES = (
    "Control, format, line and paragraph separator characters are refused; the pattern names"
    " those of the Basic Multilingual Plane, and the server refuses the format characters of"
    " every other plane too (tag characters, musical formatting)."
)
Name = Annotated[
    str, msgspec.Meta(max_length=NAME_LENGTH, pattern=NAME_PATTERN, description=PLANES)
]
#: A chat message as `app.people.chat.checked_text` takes it: what a name may hold, and more
#: than spaces (the space separators, which trimming takes away).
SPACES = " \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000"
TEXT_PATTERN = f"^[^{_refused_ranges()}]*[^{_refused_ranges()}{SPACES}][^{_refused_ranges()}]*$"
Text = Annotated[
    str, msgspec.Meta(max_length=TEXT_LENGTH, pattern=TEXT_PATTERN, description=PLANES)
]


class Say(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body of a chat message: plain text, shown as text, never as markup."""

    text: Text


JOIN = "/api/tables/{table_id}/join"
#: Which refusals each route may answer, by status.
REFUSALS: dict[tuple[str, str], tuple[int, ...]] = {
    ("post", "/api/games"): (400, 413, 422, 429, 503),
    ("get", "/api/games"): (400, 503),
    ("get", "/api/games/types"): (),
    ("get", "/api/games/types/{name}/rules"): (404,),
    ("post", "/api/games/import"): (400, 413, 422, 429, 503),
    ("get", "/api/games/{game_id}"): (400, 401, 404, 503),
    ("post", "/api/games/{game_id}/commands"): (400, 401, 404, 409, 413, 422, 429, 503),
    ("get", "/api/games/{game_id}/events"): (400, 401, 404, 422, 503),
    ("get", "/api/games/{game_id}/replay"): (400, 401, 404, 422, 503),
    ("get", "/api/games/{game_id}/stream"): (400, 401, 404, 422, 503),
    ("get", "/api/games/{game_id}/export"): (401, 404, 409, 503),
    ("get", "/api/games/{game_id}/timeline"): (401, 404, 503),
    ("post", "/api/games/{game_id}/tickets"): (401, 404, 503),
    ("post", "/api/tables"): (400, 401, 403, 413, 422, 429, 503),
    ("get", "/api/tables"): (429, 503),
    ("get", "/api/tables/stream"): (429, 503),
    ("get", "/api/tables/{table_id}"): (404, 429, 503),
    ("post", JOIN): (400, 401, 403, 404, 409, 413, 422, 429, 503),
    ("post", "/api/tables/{table_id}/leave"): (401, 403, 404, 409, 429, 503),
    ("post", "/api/tables/{table_id}/decline"): (401, 403, 404, 409, 422, 429, 503),
    ("post", "/api/tables/{table_id}/start"): (401, 403, 404, 409, 422, 429, 503),
    ("post", "/api/games/{game_id}/rematch"): (401, 403, 404, 409, 422, 429, 503),
    ("get", "/api/games/{game_id}/rematch"): (401, 404, 429, 503),
    ("get", "/api/me/games"): (401, 429, 503),
    ("get", "/api/players/{name}"): (401, 404, 429, 503),
    ("get", "/api/leaderboards/{game}"): (401, 404, 429, 503),
    ("get", "/api/games/{game_id}/result"): (400, 401, 404, 409, 429, 503),
    ("get", "/api/games/{game_id}/chat"): (400, 401, 404, 429, 503),
    ("post", "/api/games/{game_id}/chat"): (400, 401, 403, 404, 413, 429, 503),
    ("get", "/healthz"): (503,),
    ("get", "/metrics"): (),
    ("post", "/api/accounts"): (400, 403, 409, 422, 429, 503),
    ("post", "/api/session"): (400, 401, 403, 422, 429, 503),
    ("delete", "/api/session"): (403, 503),
    ("get", "/api/me"): (401, 503),
    ("post", "/api/me/password"): (400, 401, 403, 422, 429, 503),
    ("get", "/api/me/tokens"): (401, 503),
    ("post", "/api/me/tokens"): (400, 401, 403, 409, 422, 503),
    ("delete", "/api/me/tokens/{token_id}"): (401, 403, 404, 503),
}
#: The bodies of routes that Litestar decodes (their structs refuse unknown fields: the schema
#: made by msgspec says so, where Litestar's own would not).
BODIES: dict[tuple[str, str], Any] = {
    ("post", "/api/accounts"): accounts.NewAccount,
    ("post", "/api/session"): accounts.Credentials,
    ("post", "/api/me/password"): accounts.NewPassword,
    ("post", "/api/me/tokens"): accounts.TokenRequest,
}
_MEANING = {
    400: "The request does not match this schema (a `code` says how).",
    401: "Not logged in, or no seat token where one is needed, or a token of no seat of this "
    "game, or a personal token unknown or revoked.",
    403: "Not yours to do: a seat or table of another player (not seated), or a browser's write "
    "without its CSRF token.",
    404: "There is no game (or account token, or table) with that id.",
    409: "Not now: not your turn, a stale version, a busy game, a game still running, or a "
    "name or seat taken.",
    413: "The body is larger than 64 KiB.",
    422: "It matches the schema, but the game refuses it (its rules, seats or options).",
    429: "Too many requests from your address, or too many running games; see Retry-After.",
    503: "The game store does not answer right now, or the server checks as many passwords as "
    "it can; see Retry-After.",
}


def _create_type(game: AnyGame) -> Any:
    title = api_types(game).view.__name__.removesuffix("GameView")
    human = msgspec.defstruct(
        f"{title}HumanSeat",
        [("name", Name | None, None)],
        tag="human",
        tag_field="type",
        forbid_unknown_fields=True,
    )
    levels = tuple(sorted(game.policies)) or ("normal",)
    ai = msgspec.defstruct(
        f"{title}AiSeat",
        [("name", Name | None, None), ("level", Literal[levels] | None, None)],
        tag="ai",
        tag_field="type",
        forbid_unknown_fields=True,
    )
    seats = Annotated[
        list[human | ai],  # type: ignore[valid-type]
        msgspec.Meta(min_length=game.min_seats, max_length=game.max_seats),
    ]
    return msgspec.defstruct(
        f"Create{title}",
        [("seats", seats), ("options", game.options_type, {}), ("seed", Seed | None, None)],
        tag=game.name,
        tag_field="game",
        forbid_unknown_fields=True,
    )


def _components(types: list[Any], prefix: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    refs, found = msgspec.json.schema_components(
        types, ref_template=f"#/components/schemas/{prefix}{{name}}"
    )
    return list(refs), {f"{prefix}{name}": schema for name, schema in found.items()}


def _bounded(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema object under `node`."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _bounded(value)
    elif isinstance(node, list):
        for value in node:
            yield from _bounded(value)


def _int64(schemas: dict[str, Any]) -> None:
    for schema in _bounded(schemas):
        if schema.get("type") == "integer":
            schema.setdefault("minimum", INT64[0])
            schema.setdefault("maximum", INT64[1])


def _body(refs: list[dict[str, Any]]) -> dict[str, Any]:
    schema = refs[0] if len(refs) == 1 else {"oneOf": refs}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def truthful(document: dict[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """Complete the document Litestar made (in place); returns it."""
    paths, components = document["paths"], document["components"]["schemas"]
    components["Refusal"] = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
        "additionalProperties": False,
    }
    games = [kind.game for kind in catalogue]
    create, commands, logs = [], [], []
    for game in games:
        title = api_types(game).view.__name__.removesuffix("GameView")
        refs, found = _components([_create_type(game)], f"{title}_")
        create += refs
        _int64(found)
        components.update(found)
        refs, found = _components([game.command_type], f"{title}Command_")
        for schema in found.values():
            # optional, and null is as good as leaving it out (`app.api.http.command_of`)
            schema["properties"]["expected_version"] = {
                "anyOf": [{"type": "integer"}, {"type": "null"}]
            }
        _int64(found)
        components.update(found)
        commands += refs
        refs, found = _components([api_types(game).log], f"{title}Import_")
        _int64(found)
        components.update(found)
        logs += refs
    _tables(paths, components)
    paths["/api/games"]["post"]["requestBody"] = _body(create)
    paths["/api/games/{game_id}/commands"]["post"]["requestBody"] = _body(commands)
    paths["/api/games/import"]["post"]["requestBody"] = _body(logs)
    for (method, path), kind in BODIES.items():
        refs, found = _components([kind], "")
        components.update(found)
        paths[path][method]["requestBody"] = _body(refs)
    refs, found = _components([Say], "Chat")
    components.update(found)
    paths["/api/games/{game_id}/chat"]["post"]["requestBody"] = _body(refs)
    _headers(paths)
    _stream(paths, [api_types(game).entry.__name__ for game in games], components)
    for (method, path), statuses in REFUSALS.items():
        responses = paths[path][method]["responses"]
        for status in [s for s in list(responses) if s.startswith("4") or s.startswith("5")]:
            del responses[status]
        for status in statuses:
            responses[str(status)] = _refusal(status)
    for item in paths.values():  # a browser's write with its session cookie needs its CSRF token
        for method, operation in item.items():
            if method in ("post", "put", "patch", "delete"):
                operation["responses"].setdefault("403", _refusal(403))
    paths["/api/games/import"]["post"]["responses"]["413"]["description"] = (
        "The log is larger than `IMPORT_MAX_BYTES` (1,024 KiB unless the server sets another)."
    )
    return document


def _tables(paths: dict[str, Any], components: dict[str, Any]) -> None:
    """The bodies of opening and joining a table, and a rematch asked again (200)."""
    for path, kind, required in (("/api/tables", OpenTable, True), (JOIN, Join, False)):
        refs, found = _components([kind], "Table_")
        _int64(found)
        components.update(found)
        paths[path]["post"]["requestBody"] = {**_body(refs), "required": required}
    rematch = paths["/api/games/{game_id}/rematch"]["post"]["responses"]
    rematch["200"] = {**rematch["201"], "description": "The rematch, opened before."}
    lobby = {"$ref": "#/components/schemas/TableList"}
    paths["/api/tables/stream"]["get"]["responses"]["200"]["content"] = {
        "text/event-stream": {
            "schema": {
                "type": "object",
                "properties": {
                    "event": {"const": "tables"},
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": lobby,
                    },
                },
                "required": ["event", "data"],
            },
            "description": "Messages `event: tables` and `data: <the lobby as JSON>`.",
        }
    }


def _refusal(status: int) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": _MEANING[status],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}},
    }
    if status in (429, 503):
        answer["headers"] = {
            "Retry-After": {"required": True, "schema": {"type": "integer", "minimum": 1}}
        }
    return answer


def _headers(paths: dict[str, Any]) -> None:
    bearer = {
        "name": "Authorization",
        "in": "header",
        "required": False,
        "description": "`Bearer <token>` of a seat; without it, a spectator.",
        "schema": {"type": "string", "pattern": f"^{BEARER.pattern}$"},
    }
    for path, item in paths.items():
        if path.startswith("/api/games/{game_id}"):
            for operation in item.values():
                needed = path.endswith(("/commands", "/tickets"))
                operation.setdefault("parameters", []).append({**bearer, "required": needed})
    paths["/api/games/{game_id}/commands"]["post"]["parameters"].append(
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "description": "The same key from the same seat applies a command once.",
            "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY},
        }
    )
    resume = {"type": "string", "pattern": RESUME}
    paths["/api/games/{game_id}/stream"]["get"]["parameters"] += [
        {
            "name": "Last-Event-ID",
            "in": "header",
            "required": False,
            "schema": resume,
            "description": "Resume after this version (at most the game's version); empty: "
            "from the start.",
        },
        {
            "name": "after",
            "in": "query",
            "required": False,
            "schema": resume,
            "description": "Resume after this version, for clients that cannot send headers.",
        },
    ]


def _stream(paths: dict[str, Any], entries: list[str], components: dict[str, Any]) -> None:
    """Each message of a stream (Open API 3.1: the `schema` of `text/event-stream` describes
    one event): an event's id is the entry's version, its data one of the games' entries as
    JSON; a chat message is named `chat`, has no id, and its data is the message as JSON."""
    answer = paths["/api/games/{game_id}/stream"]["get"]["responses"]["200"]
    entry = {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in entries]}
    refs, found = _components([ChatMessage], "")
    components.update(found)
    answer["content"] = {
        "text/event-stream": {
            "schema": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "pattern": LAST_EVENT_ID},
                            "data": {
                                "type": "string",
                                "contentMediaType": "application/json",
                                "contentSchema": entry,
                            },
                        },
                        "required": ["id", "data"],
                    },
                    {
                        "type": "object",
                        "properties": {
                            "event": {"const": "chat"},
                            "data": {
                                "type": "string",
                                "contentMediaType": "application/json",
                                "contentSchema": refs[0],
                            },
                        },
                        "required": ["event", "data"],
                    },
                ]
            },
            "description": "Messages `id: <version>` and `data: <entry as JSON>`; the table's "
            "chat as `event: chat` and `data: <message as JSON>`, with no id.",
        }
    }
