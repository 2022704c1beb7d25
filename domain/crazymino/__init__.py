"""Crazymino: 2–4 players lay corner-numbered tiles on a 14×14 board."""
