"""What the command service needs of the layers it does not know: where machine work goes."""

from __future__ import annotations

from typing import Protocol

from app.commands.table import Table


class Scheduler(Protocol):
    """Where machine work goes: an arq queue (`app.machine.scheduler`), or nowhere (tests of
    the service alone)."""

    def waits(self, table: Table) -> bool:
        """Whether `table` waits for machine work (most tables of people do not): `expect`
        and `schedule` are awaited only then, and nothing is awaited for the others."""

    async def expect(self, table: Table) -> None:
        """Mark the game in the due index if `table` waits for work (before its append)."""

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        """Queue the work `table` waits for (after its append)."""
