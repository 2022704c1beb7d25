"""The end of an identity, told to every API process.

An identity is what a caller proved who it is with: a browser's session, a personal token, or
the player's account behind either. Its key is the Redis key whose existence keeps it:
``player:{KEY}:session:DIGEST``, ``ptoken:DIGEST`` (SHA-256 of the secret, never the secret) or
``player:{KEY}``. Whatever ends one (a logout, a revoked token, a changed password; later a ban or
a deleted account, with the player's key) publishes its key on the one shard channel
``people:{ends}:news``; every API process listens there (`app.live.hub`) and ends the streams
and sockets opened with it. Whether an identity still lasts is an EXISTS of its key, which a hub
asks now and then, so that a message missed while its listener was away still ends them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: The shard channel of identities' ends (one slot of a cluster: its hash tag).
ENDS_CHANNEL = "people:{ends}:news"
ENDS = ENDS_CHANNEL.encode()


async def announce(redis: Redis, keys: Sequence[str]) -> None:
    """Tell every API process that these identities ended (their keys, already deleted). A
    Redis that fails here only delays the end until each process's next recheck."""
    if not keys:
        return
    try:
        await redis.execute_command("SPUBLISH", ENDS_CHANNEL, " ".join(keys))  # type: ignore[no-untyped-call]
    except (RedisError, OSError) as error:
        log.warning("the end of %d identities was not announced (%s)", len(keys), error)


def ended_of(payload: bytes) -> list[str]:
    """The keys of an announcement."""
    return payload.decode(errors="replace").split()


async def lasting(redis: Redis, keys: Iterable[str]) -> set[str]:
    """Those of the keys that still exist (one round trip; each key its own command, as they lie
    on many slots of a cluster)."""
    asked = list(keys)
    if not asked:
        return set()
    async with redis.pipeline(transaction=False) as pipe:
        for key in asked:
            pipe.exists(key)
        found = await pipe.execute()
    return {key for key, there in zip(asked, found, strict=True) if there}
