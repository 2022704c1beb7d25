"""What a process keeps of players: their accounts, sessions, personal tokens, tables' chat,
the open tables where they meet, and their records (ratings, histories)."""

from __future__ import annotations

from typing import NamedTuple

from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.service import GameService
from app.people.accounts import Accounts
from app.people.chat import Chat
from app.people.hashing import HashPool
from app.people.hosting import Hosting
from app.people.rating_store import RatingStore
from app.people.ratings import Ratings
from app.people.records import Records
from app.people.sessions import Sessions
from app.people.table_ratings import TableRatings
from app.people.tables import Tables
from app.people.tokens import PersonalTokens
from app.store.chat import ChatLog


class People(NamedTuple):
    accounts: Accounts
    sessions: Sessions
    tokens: PersonalTokens
    chat: Chat
    tables: Hosting
    ratings: Ratings
    records: Records

    @classmethod
    def on(cls, redis: Redis, settings: Settings, service: GameService) -> People:
        seconds = round(settings.session_days * 86400)
        log = ChatLog(redis, kept=settings.chat_kept, pipe=service.store.pipe)
        chat = Chat(log, settings.chat_per_minute)
        pool = HashPool(settings.hash_workers, settings.hash_queue, settings.retry_after)
        accounts = Accounts(redis, pool=pool)
        store = RatingStore(redis)
        hosting = Hosting(
            Tables(redis), service, accounts, settings.table_open_minutes, TableRatings(store)
        )
        ratings = Ratings(store, service)
        records = Records(store, accounts, service.catalogue.names)
        sessions, tokens = Sessions(redis, seconds), PersonalTokens(redis)
        return cls(accounts, sessions, tokens, chat, hosting, ratings, records)
