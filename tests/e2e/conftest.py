"""A real server: `python -m app` in a subprocess, on a real Redis, with its worker in process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: The tests play many games from one address: the limits are off unless a test sets them.
NO_LIMITS = {"RATE_CREATE_PER_MINUTE": "0", "RATE_COMMANDS_PER_MINUTE": "0", "MAX_OPEN_GAMES": "0"}


def start_server(
    env: dict[str, str], log: Path, *, ready: bool = True
) -> tuple[subprocess.Popen[bytes], str]:
    """`python -m app` in a subprocess; waits until /healthz says ok (or, without `ready`,
    until it answers at all)."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port), "AI_THINK_SECONDS": "0", **NO_LIMITS, **env}
    if "REDIS_URL" in env and not env["REDIS_URL"]:
        del env["REDIS_URL"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        if proc.poll() is not None:
            pytest.fail(f"the server exited: {log.read_text()}")
        try:
            status = httpx.get(f"{url}/healthz", timeout=2).status_code
            if status == 200 or not ready:
                return proc, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the server did not start: {log.read_text()}")
        time.sleep(0.1)


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`arq workers.main.WorkerSettings` in a subprocess, its output in `log`."""
    env = {**os.environ, "AI_THINK_SECONDS": "0", **env}
    arq = Path(sys.executable).with_name("arq")
    with log.open("ab") as out:
        return subprocess.Popen(
            [str(arq), "workers.main.WorkerSettings"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server on a real Redis, its arq worker in process, AI thinking 0 s,
    hosting the test suite's timed game (dice race) too."""
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = {"REDIS_URL": redis_url, "WORKER_IN_PROCESS": "1", "SSE_KEEP_ALIVE_SECONDS": "0.5"}
    env["EXTRA_GAMES"] = "tests.games.dice_race:DICE_RACE"
    proc, url = start_server(env, log)
    try:
        yield url
    finally:
        stop_server(proc)
        text = log.read_text()
        assert "Traceback" not in text, text[-4000:]
