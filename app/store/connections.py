"""Clients of the configured Redis: one server, or a Redis Cluster.

A cluster is named by a `redis+cluster://host:port` URL or by `REDIS_CLUSTER=1`; its client
(`redis.asyncio.RedisCluster`) sends each command to the node that owns its key's slot, so
every command the service sends touches one slot (a game's keys share the game id as hash tag;
the global indexes are keys of their own) and no pipeline is transactional. A work queue needs
WATCH/MULTI (arq): its keys share one hash tag, and its client is a plain one connected to the
node that owns that slot (`node_url`).
"""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis, RedisCluster

from app.base.config import Settings
from app.store.redis_pool import LeanPool

CLUSTER_SCHEME = "redis+cluster://"


def plain_url(url: str) -> str:
    """The URL with the cluster scheme replaced by `redis://`."""
    return "redis://" + url[len(CLUSTER_SCHEME) :] if url.startswith(CLUSTER_SCHEME) else url


def pool(
    settings: Settings, connections: int, *, read_timeout: float | None = None, url: str = ""
) -> Any:
    """A connection pool of one Redis server (the configured one, or `url`): a call that waits
    longer than the timeout for a connection, to connect, or for its answer fails instead of
    hanging."""
    url = url or plain_url(settings.redis_url or "")
    timeout = settings.redis_timeout
    return LeanPool.from_url(
        url,
        max_connections=connections,
        timeout=timeout,
        socket_timeout=read_timeout or timeout,
        socket_connect_timeout=timeout,
        health_check_interval=30,
    )


def data_client(
    settings: Settings, connections: int, *, read_timeout: float | None = None
) -> Redis:
    """A bytes client of the configured Redis, or of the cluster (`connections` per node)."""
    assert settings.redis_url is not None
    if not settings.cluster:
        return Redis(connection_pool=pool(settings, connections, read_timeout=read_timeout))
    url = plain_url(settings.redis_url).rsplit("/", 1)[0] if _has_db(settings) else None
    cluster = RedisCluster.from_url(
        url or plain_url(settings.redis_url),
        max_connections=connections,
        socket_timeout=read_timeout or settings.redis_timeout,
        socket_connect_timeout=settings.redis_timeout,
        health_check_interval=30,
    )
    return cast(Redis, cluster)  # the same commands, each routed to its slot's node


def _has_db(settings: Settings) -> bool:
    return plain_url(settings.redis_url or "").count("/") > 2


async def node_url(client: Redis, key: str) -> str:
    """The URL of the server that holds `key`: the configured one, or its cluster node."""
    if isinstance(client, RedisCluster):
        await client.initialize()
        node = client.get_node_from_key(key)
        return f"redis://{node.host}:{node.port}/0"
    kwargs = client.connection_pool.connection_kwargs
    host, port = kwargs.get("host", "127.0.0.1"), kwargs.get("port", 6379)
    return f"redis://{host}:{port}/{kwargs.get('db', 0)}"
