"""Mondo: every player builds a world board at once from one shared display, against the clock."""
