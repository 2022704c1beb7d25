"""Bad input on every route: the right 4xx with a JSON refusal, never a 500, and nothing written."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from client import auth, create, view

BIG = b'{"type": "draw_and_pass", "pad": "' + b"x" * (64 * 1024 + 1) + b'"}'
DEEP = b"[" * 10_000 + b"]" * 10_000  # nested 10,000 deep: still under 64 KiB
HUGE = b"9" * 5_000  # an integer of 5,000 digits
MARK = "bad-input-"  # seat names of games that must never be created


def assert_refusal(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """A refusal: that status and code, as JSON {"code", "message"} with a sentence."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    assert answer.headers["content-type"].startswith("application/json"), answer.headers
    body: dict[str, Any] = answer.json()
    assert set(body) == {"code", "message"}, body
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["message"], str) and body["message"].strip(), body
    assert body["code"] == code, body
    return body


async def snapshot(client: httpx.AsyncClient, game_id: str, token: str) -> tuple[int, Any]:
    """What a refused command must leave alone: the version and the log (as this seat sees it)."""
    shown = await view(client, game_id, token)
    events = await client.get(f"/api/games/{game_id}/events", headers=auth(token))
    assert events.status_code == 200, events.text
    assert events.json()["version"] == shown["version"]
    return shown["version"], events.json()


async def marked_games(client: httpx.AsyncClient, marker: str) -> list[str]:
    """Ids of the newest games with a seat named `marker` (games no refusal may create)."""
    lobby = await client.get("/api/games", params={"limit": 100})
    assert lobby.status_code == 200, lobby.text
    return [g["id"] for g in lobby.json()["games"] if any(s["name"] == marker for s in g["seats"])]


def post_create(body: Any) -> bytes:
    return body if isinstance(body, bytes) else json.dumps(body).encode()


# -- POST /api/games ----------------------------------------------------------------------------

HUMANS = [{"type": "human", "name": "{m}"}, {"type": "human"}]

CREATE_CASES: list[tuple[str, Any, int, str]] = [
    ("malformed-json", b'{"game": "crazymino", "seats": [{"type": "human", "name": "{m}"}', 400,
     "malformed_json"),
    ("empty-body", b"", 400, "malformed_json"),
    ("not-an-object", [], 400, "invalid_request"),
    ("missing-seats", {"game": "crazymino"}, 400, "invalid_request"),
    ("missing-game", {"seats": HUMANS}, 400, "invalid_request"),
    ("game-not-a-string", {"game": 5, "seats": HUMANS}, 400, "invalid_request"),
    ("seats-not-a-list", {"game": "crazymino", "seats": "two"}, 400, "invalid_request"),
    ("unknown-seat-type", {"game": "crazymino", "seats": [{"type": "robot", "name": "{m}"},
     {"type": "ai"}]}, 400, "invalid_request"),
    ("seat-without-type", {"game": "crazymino", "seats": [{"name": "{m}"}, {"type": "ai"}]},
     400, "invalid_request"),
    ("name-not-a-string", {"game": "crazymino", "seats": [{"type": "human", "name": 5},
     {"type": "human", "name": "{m}"}]}, 400, "invalid_request"),
    ("seed-a-string", {"game": "crazymino", "seats": HUMANS, "seed": "x"}, 400,
     "invalid_request"),
    ("seed-a-bool", {"game": "crazymino", "seats": HUMANS, "seed": True}, 400, "invalid_request"),
    ("seed-a-float", {"game": "crazymino", "seats": HUMANS, "seed": 1.5}, 400,
     "invalid_request"),
    ("options-a-list", {"game": "crazymino", "seats": HUMANS, "options": []}, 400,
     "invalid_request"),
    ("unknown-field", {"game": "crazymino", "seats": HUMANS, "colour": "red"}, 400,
     "invalid_request"),
    ("unknown-game", {"game": "chess", "seats": HUMANS}, 422, "unknown_game_type"),
    ("unknown-ai-level", {"game": "crazymino", "seats": [{"type": "human", "name": "{m}"},
     {"type": "ai", "level": "god"}]}, 422, "unknown_level"),
    ("no-seat", {"game": "crazymino", "seats": []}, 422, "bad_setup"),
    ("one-seat", {"game": "crazymino", "seats": HUMANS[:1]}, 422, "bad_setup"),
    ("five-seats", {"game": "crazymino", "seats": HUMANS + [{"type": "ai"}] * 3}, 422,
     "bad_setup"),
    ("unknown-option", {"game": "crazymino", "seats": HUMANS, "options": {"turbo": True}}, 422,
     "unknown_option"),
    ("option-out-of-range", {"game": "dice_race", "seats": HUMANS, "options":
     {"round_seconds": 0}}, 422, "bad_option.round_seconds"),
    ("option-of-a-wrong-type", {"game": "dice_race", "seats": HUMANS, "options":
     {"rounds": "three"}}, 422, "bad_option.rounds"),
    ("body-over-64KiB", b'{"game": "crazymino", "seats": [{"type": "human", "name": "{m}"}], "x": "'
     + b"x" * (64 * 1024) + b'"}', 413, "body_too_large"),
    ("nested-10000-deep", b'{"game": "crazymino", "seats": [{"type": "human", "name": "{m}"}], '
     b'"x": ' + DEEP + b"}", 400, "too_deep"),
    ("options-nested-deep", b'{"game": "crazymino", "seats": [{"type": "human", "name": "{m}"}, '
     b'{"type": "ai"}], "options": {"x": ' + DEEP + b"}}", 400, "too_deep"),
    ("seed-of-5000-digits", b'{"game": "crazymino", "seats": [{"type": "human", "name": "{m}"}, '
     b'{"type": "ai"}], "seed": ' + HUGE + b"}", 400, "invalid_request"),
    ("name-with-nul", {"game": "crazymino", "seats": [{"type": "human", "name": "{m}\u0000"},
     {"type": "ai"}]}, 400, "bad_name"),
    ("name-with-escape", {"game": "crazymino", "seats": [{"type": "human", "name": "{m}\u001b[31m"},
     {"type": "ai"}]}, 400, "bad_name"),
    ("name-with-bidi-override", {"game": "crazymino", "seats": [{"type": "human",
     "name": "{m}\u202egnp.exe"}, {"type": "ai"}]}, 400, "bad_name"),
    ("name-with-zero-width", {"game": "crazymino", "seats": [{"type": "human",
     "name": "{m}\u200b"}, {"type": "ai"}]}, 400, "bad_name"),
    ("name-with-newline", {"game": "crazymino", "seats": [{"type": "human", "name": "{m}\nx"},
     {"type": "ai"}]}, 400, "bad_name"),
    ("name-too-long", {"game": "crazymino", "seats": [{"type": "human", "name": "{m}" + "x" * 40},
     {"type": "ai"}]}, 400, "bad_name"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [c[1:] for c in CREATE_CASES],
    ids=[c[0] for c in CREATE_CASES],
)
async def test_create_refuses_bad_input(server: str, body: Any, status: int, code: str) -> None:
    marker = MARK + uuid.uuid4().hex[:12]
    content = post_create(body).replace(b"{m}", marker.encode())
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        answer = await client.post(
            "/api/games", content=content, headers={"content-type": "application/json"}
        )
        assert_refusal(answer, status, code)
        assert await marked_games(client, marker) == []


# -- GET /api/games -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "offset=-1",
        "offset=abc",
        "offset=1.5",
        "limit=0",
        "limit=-3",
        "limit=101",
        "limit=x",
        "limit=",
    ],
)
async def test_lobby_refuses_bad_paging(server: str, query: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        assert_refusal(await client.get(f"/api/games?{query}"), 400, "invalid_request")


@pytest.mark.parametrize(
    "query",
    [
        f"offset={2**63 - 1}",  # the largest 64-bit offset: Redis takes it, offset + limit not
        f"offset={2**63}",
        f"offset={10**30}",
        f"offset={2**63 - 50}&limit=100",
    ],
)
async def test_lobby_answers_a_huge_offset_without_failing(server: str, query: str) -> None:
    """Past the end of the lobby there is nothing to list: an empty page, or a 400, never 500."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        answer = await client.get(f"/api/games?{query}")
        if answer.status_code == 200:
            assert answer.json()["games"] == []
        else:
            assert_refusal(answer, 400, "invalid_request")


# -- unknown games on every route ---------------------------------------------------------------

UNKNOWN_IDS = ["0123456789abcdef", "nope", "a" * 65, "%7Bx%7D", "%C3%A9t%C3%A9", "a%20b", "-_-"]
GAME_ROUTES = [
    ("GET", ""),
    ("GET", "/events"),
    ("GET", "/events?after=0"),
    ("GET", "/replay?at=1"),
    ("GET", "/export"),
    ("GET", "/stream"),
    ("POST", "/commands"),
]


@pytest.mark.parametrize("game_id", UNKNOWN_IDS)
async def test_an_unknown_game_is_404_on_every_route(server: str, game_id: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        token = (await create(client, [{"type": "human"}, {"type": "human"}]))["seats"][0]["token"]
        for method, tail in GAME_ROUTES:
            for headers in ({}, auth(token)):
                request = client.build_request(
                    method,
                    f"/api/games/{game_id}{tail}",
                    headers=headers,
                    content=b'{"type": "draw_and_pass"}' if method == "POST" else None,
                )
                answer = await client.send(request, stream=True)
                try:
                    await answer.aread()
                    assert_refusal(answer, 404, "unknown_game")
                finally:
                    await answer.aclose()


async def test_an_unknown_page_is_an_html_page_and_an_unknown_api_address_json(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        for path in ("/nowhere", "/play", "/rules/x/y"):
            page = await client.get(path)
            assert page.status_code == 404, (path, page.status_code)
            assert page.headers["content-type"].startswith("text/html"), page.headers
            assert "<h1>There is no page here</h1>" in page.text and 'href="/"' in page.text
        for path in ("/api/nowhere", "/static/nowhere.js", "/rules-files/nowhere.svg"):
            assert_refusal(await client.get(path), 404, "not_found")
        assert_refusal(await client.post("/nowhere"), 404, "not_found")


# -- POST /api/games/{id}/commands --------------------------------------------------------------


@dataclass
class Table:
    """A fresh two-person game: who is to play, the other seat, and a stranger's token."""

    game_id: str
    token: str  # the seat to play
    other: str  # the seat that waits
    foreign: str  # a seat of another game
    hand: list[int]
    start: tuple[int, int]
    not_mine: int  # a tile id in no hand of the caller


@pytest.fixture
async def table(server: str) -> Table:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "human"}, {"type": "human"}], seed=11)
        foreign = await create(client, [{"type": "human"}, {"type": "human"}], seed=12)
        tokens = [s["token"] for s in created["seats"]]
        shown = await view(client, created["id"])
        to_play = shown["to_act"][0]
        mine = await view(client, created["id"], tokens[to_play])
        hand = [t["tile"] for t in mine["state"]["seats"][to_play]["hand"]]
        start = mine["state"]["placements"][0]
        return Table(
            created["id"],
            tokens[to_play],
            tokens[1 - to_play],
            foreign["seats"][0]["token"],
            hand,
            (start["row"], start["col"]),
            next(t for t in range(120) if t not in hand and t != start["tile"]),
        )


Body = bytes | dict[str, Any] | list[Any] | str | None | Callable[[Table], dict[str, Any]]
Who = Callable[[Table], dict[str, str]]


def seated(t: Table) -> dict[str, str]:
    return auth(t.token)


def place(**fields: Any) -> Callable[[Table], dict[str, Any]]:
    """A place_tile of the caller's first tile on the start cell, with `fields` changed."""

    def body(t: Table) -> dict[str, Any]:
        command = {"type": "place_tile", "tile": t.hand[0], "rotation": 0}
        command |= {"row": t.start[0], "col": t.start[1]}
        return command | {k: (v(t) if callable(v) else v) for k, v in fields.items()}

    return body


DRAW: dict[str, Any] = {"type": "draw_and_pass"}

COMMAND_CASES: list[tuple[str, Who, Body, int, str]] = [
    # what the body is
    ("malformed-json", seated, b'{"type": "draw_and_pass"', 400, "malformed_json"),
    ("empty-body", seated, b"", 400, "malformed_json"),
    ("not-utf8", seated, b'{"type": "\xff\xfe"}', 400, "malformed_json"),
    ("json-null", seated, None, 400, "invalid_command"),
    ("json-list", seated, [DRAW], 400, "invalid_command"),
    ("json-string", seated, "draw_and_pass", 400, "invalid_command"),
    ("missing-type", seated, {}, 400, "missing_type"),
    ("null-type", seated, {"type": None}, 400, "missing_type"),
    ("only-expected-version", seated, {"expected_version": 1}, 400, "missing_type"),
    ("unknown-type", seated, {"type": "fly"}, 400, "unknown_command"),
    ("number-type", seated, {"type": 5}, 400, "unknown_command"),
    ("list-type", seated, {"type": ["draw_and_pass"]}, 400, "unknown_command"),
    ("object-type", seated, {"type": {"draw_and_pass": 1}}, 400, "unknown_command"),
    ("another-games-command", seated, {"type": "roll"}, 422, "not_in_this_game"),
    ("another-games-place-tile", seated, {"type": "place_tile", "tile": 3, "space": 5,
     "face": "plain", "rotation": 90}, 422, "not_in_this_game"),  # Mondo's, to Crazymino
    ("another-games-place-tile-with-a-version", seated, {"type": "place_tile", "tile": 3,
     "space": 5, "face": "plain", "rotation": 90, "expected_version": 1.0}, 422,
     "not_in_this_game"),
    ("no-games-place-tile", seated, {"type": "place_tile", "tile": 3, "space": 5,
     "rotation": 90}, 400, "invalid_command"),  # neither Crazymino's nor Mondo's
    ("tile-a-string", seated, place(tile="a"), 400, "invalid_command"),
    ("tile-a-float", seated, place(tile=1.5), 400, "invalid_command"),
    ("tile-null", seated, place(tile=None), 400, "invalid_command"),
    ("row-a-bool", seated, place(row=True), 400, "invalid_command"),
    ("missing-fields", seated, {"type": "place_tile", "tile": 1}, 400, "invalid_command"),
    ("unknown-field", seated, DRAW | {"tile": 3}, 400, "invalid_command"),
    ("expected-version-string", seated, DRAW | {"expected_version": "1"}, 400,
     "invalid_command"),
    ("expected-version-bool", seated, DRAW | {"expected_version": True}, 400,
     "invalid_command"),
    ("expected-version-float", seated, DRAW | {"expected_version": 1.5}, 400,
     "invalid_command"),
    ("expected-version-whole-float", seated, DRAW | {"expected_version": 0.0}, 409,
     "stale_version"),  # as JSON Schema has it, 0.0 is the integer 0
    ("body-over-64KiB", seated, BIG, 413, "body_too_large"),
    ("nested-10000-deep", seated, b'{"type": "draw_and_pass", "x": ' + DEEP + b"}", 400,
     "too_deep"),
    ("list-nested-10000-deep", seated, DEEP, 400, "too_deep"),
    ("tile-of-5000-digits", seated, b'{"type": "place_tile", "tile": ' + HUGE +
     b', "rotation": 0, "row": 0, "col": 0}', 400, "invalid_command"),
    ("expected-version-of-5000-digits", seated, b'{"type": "draw_and_pass", "expected_version": '
     + HUGE + b"}", 400, "invalid_command"),
    ("huge-float", seated, place(tile=1e308), 422, "not_your_tile"),
    # who sends it
    ("no-token", lambda t: {}, DRAW, 401, "unauthorized"),
    ("unknown-token", lambda t: auth("not-a-token"), DRAW, 401, "unauthorized"),
    ("another-games-token", lambda t: auth(t.foreign), DRAW, 401, "unauthorized"),
    ("basic-auth", lambda t: {"Authorization": f"Basic {t.token}"}, DRAW, 401, "unauthorized"),
    ("bare-token", lambda t: {"Authorization": t.token}, DRAW, 401, "unauthorized"),
    ("empty-bearer", lambda t: {"Authorization": "Bearer"}, DRAW, 401, "unauthorized"),
    ("two-spaces", lambda t: {"Authorization": f"Bearer  {t.token}"}, DRAW, 401, "unauthorized"),
    ("token-and-more", lambda t: {"Authorization": f"Bearer {t.token} x"}, DRAW, 401,
     "unauthorized"),
    ("other-seat", lambda t: auth(t.other), DRAW, 409, "not_your_turn"),
    ("other-seat-places", lambda t: auth(t.other), place(), 409, "not_your_turn"),
    # when
    ("stale-version", seated, DRAW | {"expected_version": 0}, 409, "stale_version"),
    ("future-version", seated, DRAW | {"expected_version": 99}, 409, "stale_version"),
    ("negative-version", seated, DRAW | {"expected_version": -1}, 409, "stale_version"),
    # against the rules
    ("cell-occupied", seated, place(), 422, "cell_occupied"),
    ("not-your-tile", seated, place(tile=lambda t: t.not_mine, row=0, col=0), 422,
     "not_your_tile"),
    ("no-such-tile", seated, place(tile=10**6, row=0, col=0), 422, "not_your_tile"),
    ("negative-tile", seated, place(tile=-1, row=0, col=0), 422, "not_your_tile"),
    ("off-board", seated, place(row=14, col=3), 422, "off_board"),
    ("off-board-negative", seated, place(row=-1, col=-1), 422, "off_board"),
    ("huge-row", seated, place(row=10**30), 422, "off_board"),
    ("bad-rotation", seated, place(rotation=45), 422, "bad_rotation"),
    ("not-connected", seated, place(row=0, col=0), 422, "not_connected"),
    # an Idempotency-Key the store cannot take
    ("idempotency-key-braces", lambda t: auth(t.token) | {"Idempotency-Key": "{k}"}, DRAW, 400,
     "bad_idempotency_key"),
    ("idempotency-key-empty", lambda t: auth(t.token) | {"Idempotency-Key": ""}, DRAW, 400,
     "bad_idempotency_key"),
    ("idempotency-key-too-long", lambda t: auth(t.token) | {"Idempotency-Key": "k" * 129}, DRAW,
     400, "bad_idempotency_key"),
    ("idempotency-key-spaces", lambda t: auth(t.token) | {"Idempotency-Key": "a b"}, DRAW, 400,
     "bad_idempotency_key"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [c[1:] for c in COMMAND_CASES],
    ids=[c[0] for c in COMMAND_CASES],
)
async def test_a_bad_command_is_refused_and_nothing_is_written(
    server: str, table: Table, who: Who, body: Body, status: int, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        before = await snapshot(client, table.game_id, table.token)
        if callable(body):
            body = body(table)
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        answer = await client.post(
            f"/api/games/{table.game_id}/commands", content=content, headers=who(table)
        )
        assert_refusal(answer, status, code)
        assert await snapshot(client, table.game_id, table.token) == before


async def test_a_command_after_the_end_is_refused(server: str) -> None:
    """A finished game with people in it (an imported all-AI log, its seats made human)."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        log = json.loads(await finished_log(client))
        for seat in log["seats"]:
            seat.pop("level", None)
            seat["type"] = "human"
        imported = await client.post("/api/games/import", json=log)
        assert imported.status_code == 201, imported.text
        game_id, token = imported.json()["id"], imported.json()["seats"][0]["token"]
        before = await snapshot(client, game_id, token)
        assert (await view(client, game_id))["status"] == "over"
        answer = await client.post(f"/api/games/{game_id}/commands", json=DRAW, headers=auth(token))
        assert_refusal(answer, 422, "game_over")
        assert await snapshot(client, game_id, token) == before


async def test_the_same_idempotency_key_applies_a_command_once(server: str, table: Table) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        version, log = await snapshot(client, table.game_id, table.token)
        url = f"/api/games/{table.game_id}/commands"
        headers = auth(table.token) | {"Idempotency-Key": f"draw-{uuid.uuid4()}"}
        first = await client.post(url, json=DRAW, headers=headers)
        second = await client.post(url, json=DRAW, headers=headers)
        assert first.status_code == second.status_code == 200, (first.text, second.text)
        one, two = first.json(), second.json()
        assert one["replayed"] is False and two["replayed"] is True
        assert one["version"] == two["version"] > version
        assert one["events"] == two["events"]
        assert [e["version"] for e in one["events"]] == list(range(version + 1, one["version"] + 1))
        after_version, after_log = await snapshot(client, table.game_id, table.token)
        assert after_version == one["version"]
        assert after_log["events"][: len(log["events"])] == log["events"]
        assert after_log["events"][len(log["events"]) :] == one["events"]  # written once

        # the key is spent: sent once more, even stale, it answers the first outcome again
        third = await client.post(url, json=DRAW | {"expected_version": 0}, headers=headers)
        assert third.status_code == 200 and third.json() == two
        assert await snapshot(client, table.game_id, table.token) == (after_version, after_log)


async def test_a_stale_expected_version_is_refused(server: str, table: Table) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        version, _ = await snapshot(client, table.game_id, table.token)
        url = f"/api/games/{table.game_id}/commands"
        sent = await client.post(
            url, json=DRAW | {"expected_version": version}, headers=auth(table.token)
        )
        assert sent.status_code == 200, sent.text
        before = await snapshot(client, table.game_id, table.other)
        assert before[0] == sent.json()["version"] > version
        # the other seat, now to play, acts on the version it saw before that draw
        stale = await client.post(
            url, json=DRAW | {"expected_version": version}, headers=auth(table.other)
        )
        body = assert_refusal(stale, 409, "stale_version")
        assert str(before[0]) in body["message"]
        assert await snapshot(client, table.game_id, table.other) == before


# -- reading routes: bad queries and bad tokens -------------------------------------------------

READ_CASES: list[tuple[str, str, Callable[[Table], dict[str, str]], int, str]] = [
    ("events-negative-after", "/events?after=-1", lambda t: {}, 400, "invalid_request"),
    ("events-text-after", "/events?after=abc", lambda t: {}, 400, "invalid_request"),
    ("events-float-after", "/events?after=1.5", lambda t: {}, 400, "invalid_request"),
    ("replay-without-at", "/replay", lambda t: {}, 400, "invalid_request"),
    ("replay-at-0", "/replay?at=0", lambda t: {}, 400, "invalid_request"),
    ("replay-at-negative", "/replay?at=-2", lambda t: {}, 400, "invalid_request"),
    ("replay-at-text", "/replay?at=abc", lambda t: {}, 400, "invalid_request"),
    ("replay-past-the-end", "/replay?at=999", lambda t: {}, 422, "bad_version"),
    ("replay-far-past-the-end", f"/replay?at={10**30}", lambda t: {}, 422, "bad_version"),
    ("events-after-the-end", "/events?after=999", lambda t: {}, 422, "bad_version"),
    ("events-after-far-past-the-end", f"/events?after={10**30}", lambda t: {}, 422, "bad_version"),
    ("events-after-superscript", "/events?after=²", lambda t: {}, 400, "invalid_request"),
    ("stream-after-the-end", "/stream?after=999", lambda t: {}, 422, "bad_version"),
    ("stream-after-superscript", "/stream?after=²", lambda t: {}, 400, "bad_last_event_id"),
    ("stream-after-arabic-digit", "/stream?after=٣", lambda t: {}, 400, "bad_last_event_id"),
    ("stream-after-negative", "/stream?after=-1", lambda t: {}, 400, "bad_last_event_id"),
    (
        "stream-last-event-id-of-5000-digits",
        "/stream",
        lambda t: {"Last-Event-ID": "9" * 5000},
        400,
        "bad_last_event_id",
    ),
    (
        "stream-last-event-id-text",
        "/stream",
        lambda t: {"Last-Event-ID": "abc"},
        400,
        "bad_last_event_id",
    ),
    (
        "stream-last-event-id-past-the-end",
        "/stream",
        lambda t: {"Last-Event-ID": "999"},
        422,
        "bad_version",
    ),
    ("export-running", "/export", lambda t: {}, 409, "game_running"),
    ("export-running-as-seat", "/export", seated, 409, "game_running"),
]
for _path in ("", "/events", "/replay?at=1", "/stream"):
    READ_CASES += [
        (f"{_path or '/'}-unknown-token", _path, lambda t: auth("nope"), 401, "unauthorized"),
        (f"{_path or '/'}-another-games-token", _path, lambda t: auth(t.foreign), 401,
         "unauthorized"),
        (f"{_path or '/'}-basic-auth", _path, lambda t: {"Authorization": "Basic eDp5"}, 401,
         "unauthorized"),
        (f"{_path or '/'}-empty-bearer", _path, lambda t: {"Authorization": "Bearer"}, 401,
         "unauthorized"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "who", "status", "code"),
    [c[1:] for c in READ_CASES],
    ids=[c[0] for c in READ_CASES],
)
async def test_a_bad_read_is_refused(
    server: str, table: Table, path: str, who: Who, status: int, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        before = await snapshot(client, table.game_id, table.token)
        request = client.build_request(
            "GET", f"/api/games/{table.game_id}{path}", headers=who(table)
        )
        answer = await client.send(request, stream=True)  # a stream that opens would not end
        try:
            await answer.aread()
            assert_refusal(answer, status, code)
        finally:
            await answer.aclose()
        assert await snapshot(client, table.game_id, table.token) == before


# -- POST /api/games/import ---------------------------------------------------------------------

_finished: dict[str, bytes] = {}


async def finished_log(client: httpx.AsyncClient) -> bytes:
    """The export of a finished all-AI game (played once per test session)."""
    if "log" not in _finished:
        created = await create(client, [{"type": "ai"}, {"type": "ai", "level": "easy"}], seed=5)
        while (await view(client, created["id"]))["status"] != "over":
            await asyncio.sleep(0.05)
        exported = await client.get(f"/api/games/{created['id']}/export")
        assert exported.status_code == 200, exported.text
        _finished["log"] = exported.content
    return _finished["log"]


def renamed(log: dict[str, Any], marker: str) -> dict[str, Any]:
    """The same log with its players named after `marker`: it still replays."""
    log = copy.deepcopy(log)
    names = [f"{marker}" if n == 0 else f"{marker}-{n}" for n in range(len(log["seats"]))]
    log["setup"]["players"] = names
    log["events"][0]["event"]["players"] = names
    for seat, name in zip(log["seats"], names, strict=True):
        seat["name"] = name
    return log


def first(log: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(log["events"]) if e["event"]["type"] == kind)


def tamper_score(log: dict[str, Any]) -> int:
    i = first(log, "tile_placed")
    log["events"][i]["event"]["score"]["total"] += 1
    return i + 1


def tamper_tile(log: dict[str, Any]) -> int:
    i = first(log, "tile_placed")
    placed = log["events"][i]["event"]
    placed["tile"] = next(t for t in range(120) if t != placed["tile"])
    return i + 1


def tamper_corners(log: dict[str, Any]) -> int:
    i = first(log, "tile_placed")
    placed = log["events"][i]["event"]
    placed["corners"] = [n + 1 for n in placed["corners"]]
    return i + 1


def tamper_cause(log: dict[str, Any]) -> int:
    i = first(log, "tile_placed")
    log["events"][i]["by"] = 1 - log["events"][i]["by"]
    return i + 1


def tamper_time(log: dict[str, Any]) -> int:
    """Two events of one command stamped at different times."""
    i = next(
        i
        for i, r in enumerate(log["events"][1:], 1)
        if r["by"] is not None
        and log["events"][i - 1]["by"] == r["by"]
        and log["events"][i - 1]["at"] == r["at"]
    )
    log["events"][i]["at"] += 1
    return i + 1


def drop_middle(log: dict[str, Any]) -> int:
    i = len(log["events"]) // 2
    del log["events"][i]
    return 0


def drop_last(log: dict[str, Any]) -> int:
    del log["events"][-1]
    return 0


def repeat_last(log: dict[str, Any]) -> int:
    log["events"].append(log["events"][-1])
    return len(log["events"])


def swap_events(log: dict[str, Any]) -> int:
    i = first(log, "tile_placed")
    log["events"][i], log["events"][i + 1] = log["events"][i + 1], log["events"][i]
    return i + 1


def other_seed(log: dict[str, Any]) -> int:
    log["setup"]["seed"] += 1
    return 1


def swap_hands(log: dict[str, Any]) -> int:
    hands = log["events"][0]["event"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return 1


def no_events(log: dict[str, Any]) -> int:
    log["events"] = []
    return 1


def bigger_bonus(log: dict[str, Any]) -> int:
    ended = log["events"][-1]["event"]
    assert ended["type"] == "game_ended"
    if ended["bonus"]:
        ended["bonus"][0]["points"] += 5
    else:
        ended["reason"] = "last_tile" if ended["reason"] == "blocked" else "blocked"
    return 0  # reported at the first event of the command that ended the game


def fewer_seats(log: dict[str, Any]) -> int:
    log["seats"] = log["seats"][:1]
    return 0


TAMPERED: list[Callable[[dict[str, Any]], int]] = [
    tamper_score,
    tamper_tile,
    tamper_corners,
    tamper_cause,
    tamper_time,
    drop_middle,
    drop_last,
    repeat_last,
    swap_events,
    other_seed,
    swap_hands,
    no_events,
    bigger_bonus,
    fewer_seats,
]


@pytest.mark.parametrize("tamper", TAMPERED, ids=[t.__name__ for t in TAMPERED])
async def test_import_refuses_a_log_that_does_not_replay(
    server: str, tamper: Callable[[dict[str, Any]], int]
) -> None:
    marker = MARK + uuid.uuid4().hex[:12]
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        log = renamed(json.loads(await finished_log(client)), marker)
        position = tamper(log)
        answer = await client.post("/api/games/import", json=log)
        body = assert_refusal(answer, 422, "log_does_not_replay")
        if tamper is not fewer_seats:
            assert re.match(r"Event \d+: \w", body["message"]), body
        if position:
            assert body["message"].startswith(f"Event {position}: "), (position, body)
        assert await marked_games(client, marker) == []


async def test_import_takes_the_untampered_log(server: str) -> None:
    """The control of the test above: only the tampering made those logs fail."""
    marker = MARK + uuid.uuid4().hex[:12]
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        log = renamed(json.loads(await finished_log(client)), marker)
        answer = await client.post("/api/games/import", json=log)
        assert answer.status_code == 201, answer.text
        assert await marked_games(client, marker) == [answer.json()["id"]]
        rebuilt = await view(client, answer.json()["id"])
        assert rebuilt["status"] == "over" and rebuilt["version"] == len(log["events"])


def edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[bytes, str], bytes]:
    def make(exported: bytes, marker: str) -> bytes:
        log = renamed(json.loads(exported), marker)
        change(log)
        return json.dumps(log).encode()

    return make


def raw(content: bytes) -> Callable[[bytes, str], bytes]:
    return lambda exported, marker: content


IMPORT_CASES: list[tuple[str, Callable[[bytes, str], bytes], int, str]] = [
    ("garbage", raw(b"this is not json"), 400, "invalid_log"),
    ("empty-body", raw(b""), 400, "invalid_log"),
    ("truncated", lambda e, m: e[: len(e) // 2], 400, "invalid_log"),
    ("json-null", raw(b"null"), 400, "invalid_log"),
    ("json-list", raw(b"[1, 2]"), 400, "invalid_log"),
    ("not-a-log", raw(b'{"hello": "world"}'), 400, "invalid_log"),
    ("a-game-not-a-log", raw(b'{"game": "crazymino", "seats": [{"type": "ai"}]}'), 400,
     "invalid_log"),
    ("older-format", edit(lambda log: log.update(format="boardgames-log/1")), 422,
     "unsupported_log_format"),
    ("newer-format", edit(lambda log: log.update(format="boardgames-log/3")), 422,
     "unsupported_log_format"),
    ("other-format", edit(lambda log: log.update(format="chess-pgn")), 400, "invalid_log"),
    ("no-format", edit(lambda log: log.pop("format")), 400, "invalid_log"),
    ("unknown-field", edit(lambda log: log.update(comment="hi")), 400, "invalid_log"),
    ("events-not-a-list", edit(lambda log: log.update(events={})), 400, "invalid_log"),
    ("unknown-event-type", edit(lambda log: log["events"][1]["event"].update(type="tile_eaten")),
     400, "invalid_log"),
    ("event-field-of-wrong-type", edit(lambda log: log["events"][1]["event"].update(seat="me")),
     400, "invalid_log"),
    ("event-without-time", edit(lambda log: log["events"][1].pop("at")), 400, "invalid_log"),
    ("event-not-a-record", edit(lambda log: log["events"].__setitem__(1, log["events"][1]["event"])
     ), 400, "invalid_log"),
    ("event-not-an-object", edit(lambda log: log["events"].insert(1, 7)), 400, "invalid_log"),
    ("seed-a-string", edit(lambda log: log["setup"].update(seed="5")), 400, "invalid_log"),
    ("unknown-seat-type", edit(lambda log: log["seats"][0].update(type="robot")), 400,
     "invalid_log"),
    ("unknown-game", edit(lambda log: log.update(game="chess")), 422, "unknown_game_type"),
    ("unknown-ai-level", edit(lambda log: log["seats"][0].update(type="ai", level="god")), 422,
     "unknown_level"),
    ("body-over-the-import-limit", lambda e, m: e[:-1] + b', "pad": "' + b"x" * 1048576 + b'"}',
     413, "body_too_large"),  # IMPORT_MAX_BYTES, 1,024 KiB
    ("nested-10000-deep", raw(b'{"format": "boardgames-log/2", "x": ' + DEEP + b"}"), 400,
     "too_deep"),
    ("name-with-bidi-override", edit(lambda log: [log["setup"]["players"].__setitem__(0,
     "\u202eevil"), log["events"][0]["event"].__setitem__("players", log["setup"]["players"])]),
     400, "bad_name"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "status", "code"),
    [c[1:] for c in IMPORT_CASES],
    ids=[c[0] for c in IMPORT_CASES],
)
async def test_import_refuses_what_is_not_a_log(
    server: str, make: Callable[[bytes, str], bytes], status: int, code: str
) -> None:
    marker = MARK + uuid.uuid4().hex[:12]
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        content = make(await finished_log(client), marker)
        answer = await client.post(
            "/api/games/import", content=content, headers={"content-type": "application/json"}
        )
        assert_refusal(answer, status, code)
        assert await marked_games(client, marker) == []


# -- the tokens stay secret ---------------------------------------------------------------------


async def test_refusals_never_echo_a_token(server: str, table: Table) -> None:
    """A refused request answers a sentence, not the credentials it was sent."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        for token in (table.token, table.other, table.foreign):
            for answer in (
                await client.post(
                    f"/api/games/{table.game_id}/commands",
                    json={"type": "fly"},
                    headers=auth(token),
                ),
                await client.get(f"/api/games/{table.game_id}/export", headers=auth(token)),
                await client.get(f"/api/games/{table.game_id}/events", headers=auth(token + "x")),
            ):
                assert answer.status_code >= 400
                assert token not in answer.text
