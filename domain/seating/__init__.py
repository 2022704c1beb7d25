"""Seats at a table: turn clocks, leaving and taking a seat back, the AI playing for those who
left. It wraps any game (`seated`), so every game hosted gets the same table rules."""

from domain.seating.table import Seated, seated

__all__ = ["Seated", "seated"]
