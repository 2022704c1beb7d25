"""What a process keeps of players: their accounts, sessions, personal tokens, tables' chat,
and the open tables where they meet."""

from __future__ import annotations

from typing import NamedTuple

from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.service import GameService
from app.people.accounts import Accounts
from app.people.chat import Chat
from app.people.hosting import Hosting
from app.people.sessions import Sessions
from app.people.tables import Tables
from app.people.tokens import PersonalTokens
from app.store.chat import ChatLog


class People(NamedTuple):
    accounts: Accounts
    sessions: Sessions
    tokens: PersonalTokens
    chat: Chat
    tables: Hosting

    @classmethod
    def on(cls, redis: Redis, settings: Settings, service: GameService) -> People:
        seconds = round(settings.session_days * 86400)
        chat = Chat(ChatLog(redis, kept=settings.chat_kept), settings.chat_per_minute)
        accounts = Accounts(redis)
        hosting = Hosting(Tables(redis), service, accounts, settings.table_open_minutes)
        return cls(accounts, Sessions(redis, seconds), PersonalTokens(redis), chat, hosting)
