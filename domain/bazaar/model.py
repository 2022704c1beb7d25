"""Bazaar's commands, events and state: frozen msgspec Structs with explicit tags.

Stored events never change shape: a new field gets a default, nothing is renamed.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.bazaar.stones import Colour, Stones
from domain.game import CommandStruct, EventStruct
from domain.versions import Versions

#: The steps of a turn: a joker waits for its colour; then one draw or one trade; then at most
#: one purchase (which ends the turn) or the end of the turn.
Phase = Literal["choose_colour", "draw_or_trade", "buy_or_end"]
#: Which side of an equation a trade pays: ``left_to_right`` pays the left side and takes the right.
Direction = Literal["left_to_right", "right_to_left"]
DIRECTIONS: tuple[Direction, ...] = ("left_to_right", "right_to_left")

# -- commands (imperative) -------------------------------------------------------------------


class Draw(CommandStruct, frozen=True, tag="draw"):
    """Draw a stone from the bag."""


class ChooseColour(CommandStruct, frozen=True, tag="choose_colour"):
    """Take a stone of this colour for the joker just drawn."""

    colour: Colour


class Trade(CommandStruct, frozen=True, tag="trade"):
    """Pay one side of the table's equation number `equation` (0-9) and take the other side."""

    equation: int
    direction: Direction


class Buy(CommandStruct, frozen=True, tag="buy"):
    """Buy the top ware of stall `stall` (0-3) with the stones of the carpet."""

    stall: int


class EndTurn(CommandStruct, frozen=True, tag="end_turn"):
    """End the turn without buying."""


Command = Draw | ChooseColour | Trade | Buy | EndTurn

# -- what events show ------------------------------------------------------------------------


class Ware(msgspec.Struct, frozen=True):
    """A ware of the catalogue: five stones; precious when four or five share a colour."""

    id: int
    stones: tuple[Colour, ...]
    precious: bool


class Equation(msgspec.Struct, frozen=True):
    """One two-way equation of the exchange table: number `index` (0-9) of the table, from
    exchange card `card`."""

    index: int
    card: int
    left: tuple[Colour, ...]
    right: tuple[Colour, ...]


class Price(msgspec.Struct, frozen=True):
    """What a purchase scores and why: the ware's kind, the stones left on the carpet after
    paying, and whether a stall was already empty (the right-hand side of the price table)."""

    kind: Literal["cheap", "precious"]
    left: int
    stall_empty: bool
    points: int


# -- events (past tense) ---------------------------------------------------------------------


#: Bazaar's rules versions: 1 had no round limit; 2 ends the game after `ROUNDS` rounds.
VERSIONS = Versions(current=2, unnamed=1)


class GameStarted(EventStruct, frozen=True, tag="game_started"):
    """Seating order drawn, two exchange cards drawn, 24 wares dealt into four stalls of six.

    `tops` are the four visible wares; `stalls` (every ware, top first) and `seed` are None for
    those who may not see them (everyone, while the game runs)."""

    players: tuple[str, ...]
    order: tuple[int, ...]
    cards: tuple[int, ...]
    exchange: tuple[Equation, ...]
    tops: tuple[Ware, ...]
    counts: tuple[int, ...]
    stalls: tuple[tuple[int, ...], ...] | None
    seed: int | None = None
    #: The version of the rules the game is played under (`VERSIONS`); None in older logs.
    rules: int | None = None


class Drawn(EventStruct, frozen=True, tag="drawn"):
    """A seat drew from the bag: a stone of the colour `face`, or the joker (its colour is
    chosen next)."""

    seat: int
    face: Colour | Literal["joker"]


class ColourChosen(EventStruct, frozen=True, tag="colour_chosen"):
    """A seat took a stone of the colour it chose for its joker."""

    seat: int
    stone: Colour


class Traded(EventStruct, frozen=True, tag="traded"):
    """A seat paid `gave` to the supply and took `took` by the table's equation `equation`."""

    seat: int
    equation: int
    direction: Direction
    gave: tuple[Colour, ...]
    took: tuple[Colour, ...]


class WareBought(EventStruct, frozen=True, tag="ware_bought"):
    """A seat bought the top ware of a stall and scored its price; its turn ended.

    `left_in_stall` wares remain there; `revealed` is the stall's new top ware (None once the
    stall is empty)."""

    seat: int
    stall: int
    ware: Ware
    price: Price
    left_in_stall: int
    revealed: Ware | None


class TurnEnded(EventStruct, frozen=True, tag="turn_ended"):
    """A seat ended its turn without buying."""

    seat: int


#: Why a game ended: its 24th ware sold, its last round played (`ROUNDS`, from version 2 of
#: the rules), or nobody played for a long time.
Ending = Literal["sold_out", "last_round", "abandoned"]


class GameEnded(EventStruct, frozen=True, tag="game_ended"):
    """The end: the 24th ware was sold (`sold_out`), the last round was played
    (`last_round`), or nobody played for a long time (`abandoned`). The final scores;
    `winners` share the highest."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: Ending = "sold_out"


Event = GameStarted | Drawn | ColourChosen | Traded | WareBought | TurnEnded | GameEnded

# -- state -----------------------------------------------------------------------------------


class State(msgspec.Struct, frozen=True):
    """Everything about one game, hidden parts included. Only `evolve` makes new ones.

    `stalls` hold ware ids, top first; `carpets` are counts by colour (see `stones`); `draws`
    counts the draws from the bag so far, the chance step of the next one; `turns` the turns
    played so far (ended by a purchase or by `end_turn`); `rules` the version of the rules
    the game is played under."""

    players: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    turn: int = 0
    cards: tuple[int, ...] = ()
    stalls: tuple[tuple[int, ...], ...] = ()
    carpets: tuple[Stones, ...] = ()
    scores: tuple[int, ...] = ()
    phase: Phase = "draw_or_trade"
    draws: int = 0
    sales: tuple[WareBought, ...] = ()
    seed: int = 0
    ended: GameEnded | None = None
    turns: int = 0
    rules: int = VERSIONS.unnamed

    @property
    def started(self) -> bool:
        return bool(self.players)

    @property
    def seat_to_play(self) -> int | None:
        return None if self.ended is not None or not self.order else self.order[self.turn]
