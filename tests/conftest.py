"""Shared fixtures: a real Redis (REDIS_URL, or a private redis-server) and fakeredis."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import fakeredis
import fakeredis.aioredis
import pytest
import redis
import redis.asyncio


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """REDIS_URL if set (shared: tests never flush it), else a private throw-away redis-server.

    When the suite runs in several processes (pytest-xdist), only the first uses REDIS_URL: the
    others have a redis-server each, for the tests keep their servers apart by database number
    (`tests.processes.database`), which two processes on one Redis would share."""
    binary = shutil.which("redis-server")
    url = os.environ.get("REDIS_URL")
    if url and (os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0" or binary is None):
        yield url
        return
    if binary is None:
        pytest.skip("no REDIS_URL and no redis-server on PATH: real-Redis tests skipped")
    port = _free_port()
    workdir: Path = tmp_path_factory.mktemp("redis")
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
    args += ["no", "--dir", str(workdir)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        while True:  # however long a busy machine takes: the test's timeout ends it
            if proc.poll() is not None:
                pytest.fail(f"redis-server exited with {proc.returncode} on port {port}")
            try:
                with redis.Redis.from_url(url, socket_timeout=1) as probe:
                    if probe.ping():
                        break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def redis_cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """REDIS_CLUSTER_URL if set (`redis+cluster://host:port`, shared: never flushed), else a
    private 3-master Redis Cluster on loopback, started here and stopped after the session."""
    if url := os.environ.get("REDIS_CLUSTER_URL"):
        yield url
        return
    from tests.processes import LocalCluster

    cluster = LocalCluster(tmp_path_factory.mktemp("cluster")).start()
    try:
        yield cluster.url
    finally:
        cluster.close()


def cluster_client(url: str) -> redis.asyncio.Redis:
    """A bytes async client of the cluster at `url` (`redis+cluster://host:port`)."""
    plain = "redis://" + url.split("://", 1)[1]
    return redis.asyncio.RedisCluster.from_url(plain)  # type: ignore[return-value]


@pytest.fixture(params=["real", "fake", "cluster"])
async def redis_client(request: pytest.FixtureRequest) -> AsyncIterator[redis.asyncio.Redis]:
    """A bytes (not decoded) async client: a real Redis, fakeredis with its own server, or a
    3-master Redis Cluster."""
    client: redis.asyncio.Redis
    if request.param == "real":
        client = redis.asyncio.Redis.from_url(request.getfixturevalue("redis_url"))
    elif request.param == "cluster":
        client = cluster_client(request.getfixturevalue("redis_cluster_url"))
    else:
        client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    try:
        yield client
    finally:
        await client.aclose()
