"""What a process keeps of players: their accounts, sessions, personal tokens and tables' chat."""

from __future__ import annotations

from typing import NamedTuple

from redis.asyncio import Redis

from app.base.config import Settings
from app.people.accounts import Accounts
from app.people.chat import Chat
from app.people.sessions import Sessions
from app.people.tokens import PersonalTokens
from app.store.chat import ChatLog


class People(NamedTuple):
    accounts: Accounts
    sessions: Sessions
    tokens: PersonalTokens
    chat: Chat

    @classmethod
    def on(cls, redis: Redis, settings: Settings) -> People:
        seconds = round(settings.session_days * 86400)
        chat = Chat(ChatLog(redis, kept=settings.chat_kept), settings.chat_per_minute)
        return cls(Accounts(redis), Sessions(redis, seconds), PersonalTokens(redis), chat)
