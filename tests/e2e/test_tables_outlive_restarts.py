"""A forming table lives in Redis, not in a process: the API process is stopped and another
started, and the table is there as it was; players take its seats and its game starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import start_server, stop_server
from people import closing, name, ok, signed_up

from tests.processes import database, free_port


@pytest.mark.timeout(120)
async def test_a_forming_table_outlives_its_api_process(redis_url: str, tmp_path: Path) -> None:
    env = {"REDIS_URL": database(redis_url, 15), "WORKER_IN_PROCESS": "1"}
    port = free_port()
    api, base = start_server(env, tmp_path / "api.log", port=port)
    try:
        ann_name, bob_name = name("ann"), name("bob")
        ann, bob = await signed_up(base, ann_name), await signed_up(base, bob_name)
        async with closing(ann, bob):
            seats = [{"type": "open"}, {"type": "ai", "level": "easy"}, {"type": "open"}]
            body = {"game": "crazymino", "seats": seats, "seed": 99}
            table = await ok(ann.post("/api/tables", json=body), 201)
            stop_server(api)
            api, _ = start_server(env, tmp_path / "api.log", port=port)

            again = await ok(bob.get(f"/api/tables/{table['id']}"))
            assert again == table
            assert table["id"] in [t["id"] for t in (await ok(bob.get("/api/tables")))["tables"]]
            await ok(bob.post(f"/api/tables/{table['id']}/join"))
            started = await ok(ann.post(f"/api/tables/{table['id']}/start"))
            view = await ok(bob.get(f"/api/games/{started['game_id']}"))
            assert view["seat"] == 2 and view["seed"] == 99 and view["casual"] is True
    finally:
        stop_server(api)
    assert "Traceback" not in (tmp_path / "api.log").read_text()
