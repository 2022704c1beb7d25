"""What an open table is: its plan (as opened, unchanging), the table as read from Redis
(`Stored`: the plan and who sits where), and the table as every client sees it (`OpenTableView`,
`docs/api.md`, "Tables")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from app.people.records import Rating

SeatType = Literal["open", "ai", "player"]
Status = Literal["forming", "started", "closed"]


class SeatPlan(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat as the table was opened with: open, an AI (its level) or kept for a player."""

    type: SeatType
    level: str | None = None
    reserved: str | None = None  # the player's key
    reserved_name: str | None = None


class Plan(msgspec.Struct, frozen=True):
    """What a table is, as opened; it does not change."""

    game: str
    title: str
    creator: str  # the creator's key
    creator_name: str
    seats: list[SeatPlan]
    options: dict[str, Any]
    seed: int | None
    rated: bool
    start_when_full: bool
    created: int
    closes_at: int
    min_seats: int
    rematch_of: str | None = None
    rating_min: int | None = None  # the ratings (at its game) of who may sit, both ends in
    rating_max: int | None = None

    @property
    def casual(self) -> bool:
        return self.seed is not None or any(s.type == "ai" for s in self.seats)


class SeatView(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    type: SeatType
    name: str | None = None
    level: str | None = None
    player: str | None = None  # who sits there (their key)
    reserved: str | None = None  # the name of the player it is kept for
    declined: bool = False
    rating: int | None = None  # who sits there: their rating at the table's game
    provisional: bool | None = None


class OpenTableView(msgspec.Struct, frozen=True, omit_defaults=True):
    """A table as every client sees it (`docs/api.md`, "Tables")."""

    id: str
    game: str
    title: str
    status: Status
    creator: str
    seats: list[SeatView]
    options: dict[str, Any]
    casual: bool
    rated: bool
    start_when_full: bool
    created: int
    closes_at: int
    seed: int | None = None
    game_id: str | None = None
    rematch_of: str | None = None
    rating_min: int | None = None
    rating_max: int | None = None


class Stored(msgspec.Struct, frozen=True):
    """A table as read: its plan, its fields (`t:i`, `p:i`, ...) and its status as kept."""

    id: str
    plan: Plan
    fields: dict[str, str]

    @property
    def kept_status(self) -> str:
        return self.fields.get("status", "")

    def status(self, now: int) -> Status:
        kept = self.kept_status
        if kept in ("started", "closed"):
            return kept  # type: ignore[return-value]
        return "closed" if kept == "forming" and now >= self.plan.closes_at else "forming"

    def sitter(self, seat: int) -> tuple[str, str] | None:
        """The key and name of who sits at `seat`."""
        key = self.fields.get(f"p:{seat}")
        return None if key is None else (key, self.fields.get(f"pn:{seat}", key))

    def declined(self, seat: int) -> bool:
        return f"d:{seat}" in self.fields

    def full(self) -> bool:
        """Whether no seat waits any more: each is an AI's, taken, or declined."""
        return all(
            asked.type == "ai" or self.sitter(n) is not None or self.declined(n)
            for n, asked in enumerate(self.plan.seats)
        )

    def players(self) -> set[str]:
        """Everyone at the table: who sits, and who is awaited (not declined)."""
        found = {s[0] for n in range(len(self.plan.seats)) if (s := self.sitter(n))}
        found |= {
            asked.reserved
            for n, asked in enumerate(self.plan.seats)
            if asked.reserved is not None and not self.declined(n)
        }
        return found

    def seated(self) -> list[str]:
        """The keys of who sits, in seat order."""
        return [s[0] for n in range(len(self.plan.seats)) if (s := self.sitter(n))]

    def view(self, now: int, ratings: Mapping[str, Rating] | None = None) -> OpenTableView:
        """The table as every client sees it; `ratings`: of who sits (by key), at its game."""
        plan, seats = self.plan, []
        for number, asked in enumerate(plan.seats):
            sitter = self.sitter(number)
            if sitter is not None:
                key, name = sitter
                rated = (ratings or {}).get(key)
                seat = SeatView(number, "player", name, player=key, reserved=asked.reserved_name)
                if rated is not None:
                    seat = msgspec.structs.replace(
                        seat, rating=rated.rating, provisional=rated.provisional
                    )
                seats.append(seat)
            elif asked.type == "player":
                declined = self.declined(number)
                seats.append(
                    SeatView(number, "player", reserved=asked.reserved_name, declined=declined)
                )
            else:
                seats.append(SeatView(number, asked.type, level=asked.level))
        return OpenTableView(
            self.id,
            plan.game,
            plan.title,
            self.status(now),
            plan.creator_name,
            seats,
            plan.options,
            plan.casual,
            plan.rated,
            plan.start_when_full,
            plan.created,
            plan.closes_at,
            plan.seed,
            self.fields.get("game_id"),
            plan.rematch_of,
            plan.rating_min,
            plan.rating_max,
        )
