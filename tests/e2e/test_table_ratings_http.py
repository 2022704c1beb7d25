"""Ratings where players meet, with a real server on a real Redis: the lobby, a table's view and
the lobby's stream show each seated player's rating at the table's game (the number of their
page, provisional for their first rated games); a table's rating range refuses a player out of
it with a sentence, seats one inside, and a range that cannot be is refused in words."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from people import closing, name, ok, signed_up
from test_open_tables_http import lobby_events, until
from test_ratings_http import rated_game, recorded

TWO_OPEN = [{"type": "open"}, {"type": "open"}]


def seat_ratings(table: dict[str, Any]) -> list[tuple[str, int, bool] | None]:
    return [
        (s["player"], s["rating"], s["provisional"]) if "player" in s else None
        for s in table["seats"]
    ]


async def test_the_lobby_and_a_table_show_each_seated_players_rating(server: str) -> None:
    dee_name, eve_name, fay_name = name("dee"), name("eve"), name("fay")
    dee, eve = await signed_up(server, dee_name), await signed_up(server, eve_name)
    fay = await signed_up(server, fay_name)
    out: list[dict[str, Any]] = []
    listening = asyncio.create_task(lobby_events(server, out))
    async with closing(dee, eve, fay):
        try:
            await recorded(dee, await rated_game(dee, eve))
            page = await ok(fay.get(f"/api/players/{dee_name}"))
            (crazymino,) = page["titles"]
            rating = crazymino["rating"]

            table = await ok(
                dee.post("/api/tables", json={"game": "crazymino", "seats": TWO_OPEN}), 201
            )
            await ok(fay.post(f"/api/tables/{table['id']}/join", json={}))
            expected = [(dee_name.lower(), rating, True), (fay_name.lower(), 1000, True)]
            shown = await ok(eve.get(f"/api/tables/{table['id']}"))
            assert seat_ratings(shown) == expected
            lobby = await ok(eve.get("/api/tables"))
            (listed,) = [t for t in lobby["tables"] if t["id"] == table["id"]]
            assert seat_ratings(listed) == expected
            assert "rating_min" not in listed and "rating_max" not in listed

            def streamed() -> list[Any]:
                found = [t for t in (out[-1]["tables"] if out else []) if t["id"] == table["id"]]
                return [seat_ratings(t) for t in found]

            await until(lambda: streamed() == [expected], 5, "the stream never showed both")
        finally:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening


async def test_a_range_refuses_a_player_out_of_it_and_seats_one_in_it(server: str) -> None:
    ann, bob = await signed_up(server, name("ann")), await signed_up(server, name("bob"))
    async with closing(ann, bob):
        ranged = {"game": "crazymino", "seats": TWO_OPEN, "rating_min": 900, "rating_max": 1200}
        table = await ok(ann.post("/api/tables", json=ranged), 201)
        assert (table["rating_min"], table["rating_max"]) == (900, 1200)
        lobby = await ok(bob.get("/api/tables"))
        (listed,) = [t for t in lobby["tables"] if t["id"] == table["id"]]
        assert (listed["rating_min"], listed["rating_max"]) == (900, 1200)
        joined = await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
        assert joined["seats"][1]["rating"] == 1000 and joined["seats"][1]["provisional"]

        above = {"game": "crazymino", "seats": TWO_OPEN, "rating_min": 1001, "sit": False}
        for body, words in (
            (above, "of 1001 or more"),
            ({**above, "rating_min": 900, "rating_max": 999}, "between 900 and 999"),
        ):
            aside = await ok(ann.post("/api/tables", json=body), 201)
            refused = await bob.post(f"/api/tables/{aside['id']}/join", json={})
            assert refused.status_code == 403, refused.text
            assert refused.json()["code"] == "rating_out_of_range"
            assert refused.json()["message"] == (
                f"This table is for ratings {words}; yours is 1000 at Crazymino."
            )
            still = await ok(bob.get(f"/api/tables/{aside['id']}"))
            assert all("player" not in s for s in still["seats"])

        mine = await ann.post("/api/tables", json={**above, "sit": True})
        assert mine.status_code == 403 and mine.json()["code"] == "rating_out_of_range"
        assert mine.json()["message"] == (
            "This table is for ratings of 1001 or more; yours is 1000 at Crazymino: "
            "widen the range, or do not sit."
        )


async def test_a_range_that_cannot_be_is_refused_in_words(server: str) -> None:
    ann = await signed_up(server, name("ann"))
    async with closing(ann):
        cases: list[tuple[dict[str, Any], int, str, str]] = [
            (
                {"rating_min": 1200, "rating_max": 900},
                422,
                "bad_rating_range",
                "The lowest rating asked (1200) is above the highest (900): "
                "swap them, or leave one out.",
            ),
            (
                {"rating_min": -5},
                400,
                "invalid_request",
                "'rating_min' must be a whole number of at least 0.",
            ),
            (
                {"rating_max": "1200"},
                400,
                "invalid_request",
                "'rating_max' must be a whole number or left out (null), not text.",
            ),
            ({"rating_max": 1200.5}, 400, "invalid_request", "'rating_max' must be a whole number"),
            (
                {"rating_min": 20000},
                400,
                "invalid_request",
                "'rating_min' must be a whole number of at most 10000.",
            ),
        ]
        for extra, status, code, words in cases:
            body = {"game": "crazymino", "seats": TWO_OPEN, **extra}
            answer = await ann.post("/api/tables", json=body)
            assert answer.status_code == status, (extra, answer.text)
            assert answer.json()["code"] == code, (extra, answer.text)
            assert answer.json()["message"].startswith(words), (extra, answer.text)
        assert not (await ok(ann.get("/api/me/games")))["tables"]  # none of them was opened
