"""What a process keeps of players: their accounts, sessions and personal tokens, and the open
tables where they meet."""

from __future__ import annotations

from typing import NamedTuple

from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.service import GameService
from app.people.accounts import Accounts
from app.people.hosting import Hosting
from app.people.sessions import Sessions
from app.people.tables import Tables
from app.people.tokens import PersonalTokens


class People(NamedTuple):
    accounts: Accounts
    sessions: Sessions
    tokens: PersonalTokens
    tables: Hosting

    @classmethod
    def on(cls, redis: Redis, settings: Settings, service: GameService) -> People:
        seconds = round(settings.session_days * 86400)
        accounts = Accounts(redis)
        hosting = Hosting(Tables(redis), service, accounts, settings.table_open_minutes)
        return cls(accounts, Sessions(redis, seconds), PersonalTokens(redis), hosting)
