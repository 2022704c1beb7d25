"""A table's chat: who may say what, how often, and under which name.

Seated players write (the caller's seat is worked out by the edge); everyone who may see the
game reads. A message is plain text: at most `TEXT_LENGTH` characters as sent (so that the
OpenAPI document can say exactly what is taken), with no control, format (a bidi override, a
zero-width character), line or paragraph separator character, as `app.commands.seats.check_name`
refuses them, and not only spaces; it is kept NFC-normalised and trimmed, and returned as
said, never as markup. The name shown is the seat's
name at the table, never one the client sends. A seat says at most `per_minute` messages a
minute in one game. The messages live in `app.store.chat`, as long as the game does.
"""

from __future__ import annotations

import math
import unicodedata

from app.commands.errors import InvalidInput, RateLimited, UnknownGame
from app.commands.table import Table
from app.store.chat import ChatLog, ChatMessage, TooFast
from app.store.events import GameNotFound

#: The longest message, in characters as sent.
TEXT_LENGTH = 300
_REFUSED = {"Cc", "Cf", "Cs", "Zl", "Zp"}


class BadChatMessage(InvalidInput):
    """A message that is empty, too long, or holds an invisible or control character."""

    code = "bad_chat_message"


class TooManyMessages(RateLimited):
    """The seat has said as many messages as it may this minute."""

    code = "too_many_messages"


def checked_text(text: str) -> str:
    """A message as it is kept: NFC-normalised and trimmed. `BadChatMessage` when it has more
    than `TEXT_LENGTH` characters, or a control, format (category Cf in every plane), line or
    paragraph separator character or a lone surrogate, or nothing but spaces."""
    bad = next((c for c in text if unicodedata.category(c) in _REFUSED), None)
    if bad is not None:
        raise BadChatMessage(
            f"A message may not hold the invisible or control character U+{ord(bad):04X}."
        )
    kept = unicodedata.normalize("NFC", text).strip()
    if not kept or len(text) > TEXT_LENGTH:
        raise BadChatMessage(f"A message has 1 to {TEXT_LENGTH} characters, not only spaces.")
    return kept


class Chat:
    """The chats of the games, with the limit on how often a seat speaks (0: no limit)."""

    def __init__(self, log: ChatLog, per_minute: int = 10) -> None:
        self.log = log
        self.per_minute = per_minute

    async def say(self, table: Table, seat: int, text: str, now: int) -> ChatMessage:
        """The seat's message, written at `now` (ms) under the seat's name at the table."""
        text = checked_text(text)
        try:
            return await self.log.say(
                table.id, seat, table.seats[seat].name, text, now, per_minute=self.per_minute
            )
        except TooFast as refused:
            wait = max(1, math.ceil((refused.until - now) / 1000))
            raise TooManyMessages(
                f"You may send at most {self.per_minute} messages a minute: try again in {wait} s.",
                retry_after=wait,
            ) from None
        except GameNotFound:
            raise UnknownGame("There is no game with that id.") from None

    async def messages(self, game_id: str, after: int = 0) -> tuple[list[ChatMessage], int]:
        """The messages after message `after`, and the number of the chat's last message."""
        try:
            return await self.log.read(game_id, after)
        except GameNotFound:
            raise UnknownGame("There is no game with that id.") from None
