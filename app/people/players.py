"""What a process keeps of players: their accounts, sessions and personal tokens."""

from __future__ import annotations

from typing import NamedTuple

from redis.asyncio import Redis

from app.base.config import Settings
from app.people.accounts import Accounts
from app.people.sessions import Sessions
from app.people.tokens import PersonalTokens


class People(NamedTuple):
    accounts: Accounts
    sessions: Sessions
    tokens: PersonalTokens

    @classmethod
    def on(cls, redis: Redis, settings: Settings) -> People:
        seconds = round(settings.session_days * 86400)
        return cls(Accounts(redis), Sessions(redis, seconds), PersonalTokens(redis))
