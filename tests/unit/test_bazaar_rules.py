"""Bazaar's rules: the setup from the seed, the order of a turn with each refusal's code, draws,
jokers, trades, purchases and the end."""

from __future__ import annotations

from itertools import product

import pytest
from bazaar_builders import position, started, ware_id
from msgspec.structs import replace

from domain.bazaar import exchange
from domain.bazaar.game import BAZAAR
from domain.bazaar.model import (
    DIRECTIONS,
    Buy,
    ChooseColour,
    ColourChosen,
    Command,
    Draw,
    Drawn,
    EndTurn,
    GameEnded,
    GameStarted,
    State,
    Trade,
    Traded,
    TurnEnded,
    WareBought,
)
from domain.bazaar.stones import COLOURS, counts
from domain.bazaar.tables import EXCHANGE_CARDS, WARES
from domain.chance import at_step
from domain.errors import GameOverError, OptionError, RuleError, SetupError, TurnError
from domain.game import Abandon, Record, Setup
from domain.registry import TABLES
from domain.seating.model import SeatedState
from domain.verify import verify

RED_FOR_THREE = 1  # the rules' example, red ⇄ green + blue + yellow, in the table of cards 0, 1
EVERY_COMMAND: list[Command] = [
    Draw(),
    EndTurn(),
    *(ChooseColour(c) for c in COLOURS),
    *(Trade(n, d) for n, d in product(range(10), DIRECTIONS)),
    *(Buy(s) for s in range(4)),
]


def play(state: State, seat: int, command: Command) -> State:
    return BAZAAR.fold(state, BAZAAR.decide(state, seat, command))


def refused(state: State, seat: int | None, command: Command) -> str:
    with pytest.raises(RuleError) as refusal:
        BAZAAR.decide(state, seat, command)
    return refusal.value.code


# -- setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_one_to_six_players(seats: int) -> None:
    state = started(seed=seats, seats=seats)
    assert sorted(state.order) == list(range(seats)) and len(state.carpets) == seats
    assert BAZAAR.to_act(state) == {state.order[0]} and state.phase == "draw_or_trade"


@pytest.mark.parametrize("seats", [0, 7])
def test_other_seat_counts_are_refused(seats: int) -> None:
    with pytest.raises(SetupError):
        TABLES["bazaar"].start(Setup(seed=1, players=tuple(f"P{s}" for s in range(seats))), 0)


def test_bazaar_takes_no_option() -> None:
    with pytest.raises(OptionError) as refusal:
        BAZAAR.start(Setup(seed=1, players=("a", "b"), options={"stalls": 5}))
    assert refusal.value.code == "unknown_option"


def test_the_setup_deals_two_cards_and_four_stalls_of_six_from_the_seed() -> None:
    for seed in range(20):
        (event,) = BAZAAR.start(Setup(seed=seed, players=("a", "b", "c")))
        assert isinstance(event, GameStarted) and event.stalls is not None
        assert len(event.cards) == 2 == len(set(event.cards))
        assert set(event.cards) <= set(range(len(EXCHANGE_CARDS)))
        assert event.exchange == exchange.equations(event.cards) and len(event.exchange) == 10
        dealt = [w for stall in event.stalls for w in stall]
        assert [len(s) for s in event.stalls] == [6] * 4 == list(event.counts)
        assert len(set(dealt)) == 24 and set(dealt) <= set(range(len(WARES)))
        assert [t.id for t in event.tops] == [stall[0] for stall in event.stalls]
        assert event.seed == seed and sorted(event.order) == [0, 1, 2]
        assert BAZAAR.start(Setup(seed=seed, players=("a", "b", "c"))) == [event]
    deals = {started(seed=s).stalls for s in range(20)}
    assert len(deals) == 20


def test_carpets_start_empty_and_scores_at_zero() -> None:
    state = started(seed=3, seats=4)
    assert state.carpets == ((0,) * 5,) * 4 and state.scores == (0,) * 4 and not state.sales


# -- draws and jokers -------------------------------------------------------------------------


def test_a_draw_takes_the_bags_face_at_the_games_next_chance_step() -> None:
    state = started(seed=1)  # faces at steps 0, 1, 2: red, red, blue
    seat = state.order[0]
    (drawn,) = BAZAAR.decide(state, seat, Draw())
    assert drawn == Drawn(seat, COLOURS[at_step(1, 0).below(6)]) == Drawn(seat, "red")
    state = BAZAAR.evolve(state, drawn)
    assert state.carpets[seat] == counts("R") and state.draws == 1
    assert state.phase == "buy_or_end"


def test_the_sixth_face_is_the_joker_and_its_colour_comes_first() -> None:
    state = replace(started(seed=0), draws=2)  # seed 0 shows the joker at step 2
    assert at_step(0, 2).below(6) == 5
    seat = state.order[0]
    (joker,) = BAZAAR.decide(state, seat, Draw())
    assert joker == Drawn(seat, "joker")
    state = BAZAAR.evolve(state, joker)
    assert state.phase == "choose_colour" and state.draws == 3
    assert BAZAAR.legal(state, seat) == [ChooseColour(c) for c in COLOURS]
    for command in (Draw(), Trade(0, "left_to_right"), Buy(0), EndTurn()):
        assert refused(state, seat, command) == "colour_pending"
    assert refused(state, seat, ChooseColour("purple")) == "no_such_colour"  # type: ignore[arg-type]
    assert BAZAAR.decide(state, seat, ChooseColour("white")) == [ColourChosen(seat, "white")]
    state = play(state, seat, ChooseColour("white"))
    assert state.carpets[seat] == counts("W") and state.phase == "buy_or_end"
    assert state.draws == 3


def test_a_colour_without_a_joker_is_refused() -> None:
    for phase in ("draw_or_trade", "buy_or_end"):
        state = replace(position("RG", ""), phase=phase)
        assert refused(state, 0, ChooseColour("red")) == "no_joker"


# -- the order of a turn ----------------------------------------------------------------------


def test_buying_or_ending_before_drawing_or_trading_is_refused() -> None:
    state = position(WARES[0], "", phase="draw_or_trade")
    assert refused(state, 0, Buy(0)) == "buy_before_draw_or_trade"
    assert refused(state, 0, EndTurn()) == "end_before_draw_or_trade"


def test_one_draw_or_one_trade_per_turn() -> None:
    state = position("RRRR", "", phase="draw_or_trade")
    drawn = play(state, 0, Draw())
    traded = play(state, 0, Trade(RED_FOR_THREE, "left_to_right"))
    for after in (drawn, traded):
        assert refused(after, 0, Draw()) == "already_drew_or_traded"
        assert refused(after, 0, Trade(RED_FOR_THREE, "left_to_right")) == "already_drew_or_traded"


def test_ending_the_turn_passes_to_the_next_seat_in_order() -> None:
    state = replace(position("", "", "", phase="buy_or_end", turn=2), order=(2, 0, 1))
    assert state.seat_to_play == 1
    (ended,) = BAZAAR.decide(state, 1, EndTurn())
    assert ended == TurnEnded(1)
    after = BAZAAR.evolve(state, ended)
    assert after.seat_to_play == 2 and after.phase == "draw_or_trade"


def test_only_the_seat_to_play_may_act() -> None:
    state = position("", "", phase="draw_or_trade")
    with pytest.raises(TurnError):
        BAZAAR.decide(state, 1, Draw())
    with pytest.raises(TurnError):
        BAZAAR.decide(state, None, Draw())
    assert refused(state, 1, Draw()) == "not_your_turn"
    assert BAZAAR.legal(state, 1) == []


# -- trades -----------------------------------------------------------------------------------


def test_the_rules_trade_example_works_both_ways() -> None:
    """ "on peut échanger une pierre rouge contre une jaune, une bleue et une verte" and back."""
    state = position("RW", "", phase="draw_or_trade")
    assert exchange.table(state.cards)[RED_FOR_THREE] == (counts("R"), counts("GBY"))
    (traded,) = BAZAAR.decide(state, 0, Trade(RED_FOR_THREE, "left_to_right"))
    assert traded == Traded(
        0, RED_FOR_THREE, "left_to_right", ("red",), ("green", "blue", "yellow")
    )
    state = BAZAAR.evolve(state, traded)
    assert state.carpets[0] == counts("GBWY") and state.phase == "buy_or_end"
    state = replace(state, phase="draw_or_trade")  # a later turn
    state = play(state, 0, Trade(RED_FOR_THREE, "right_to_left"))
    assert state.carpets[0] == counts("RW")


def test_a_trade_needs_the_stones_it_pays() -> None:
    state = position("GBW", "", phase="draw_or_trade")
    assert refused(state, 0, Trade(RED_FOR_THREE, "right_to_left")) == "stones_missing"
    assert refused(state, 0, Trade(RED_FOR_THREE, "left_to_right")) == "stones_missing"


@pytest.mark.parametrize("number", [-1, 10])
def test_an_equation_outside_the_table_is_refused(number: int) -> None:
    state = position("RGBWY" * 3, "", phase="draw_or_trade")
    assert refused(state, 0, Trade(number, "left_to_right")) == "no_such_equation"
    bad = Trade(0, "sideways")  # type: ignore[arg-type]
    assert refused(state, 0, bad) == "no_such_equation"


# -- purchases --------------------------------------------------------------------------------


def test_a_purchase_pays_five_stones_scores_and_ends_the_turn() -> None:
    stall = (ware_id("RRRBB"), ware_id("GGGGG"), ware_id("RGBWW"))
    state = position("RRRBBG", "", stalls=(stall, (1,), (2,), (3,)))
    (bought,) = BAZAAR.decide(state, 0, Buy(0))
    assert isinstance(bought, WareBought)
    assert bought.ware.id == stall[0] and bought.ware.stones == ("red",) * 3 + ("blue",) * 2
    assert (bought.price.kind, bought.price.left, bought.price.points) == ("cheap", 1, 3)
    assert bought.left_in_stall == 2 and bought.revealed is not None
    assert bought.revealed.id == stall[1] and bought.revealed.precious
    after = BAZAAR.evolve(state, bought)
    assert after.carpets[0] == counts("G") and after.scores == (3, 0)
    assert after.stalls[0] == stall[1:] and after.sales == (bought,)
    assert after.seat_to_play == 1 and after.phase == "draw_or_trade"


def test_a_purchase_needs_every_stone_of_the_ware() -> None:
    state = position("RRRB", "", stalls=((ware_id("RRRBB"),), (1,), (2,), (3,)))
    assert refused(state, 0, Buy(0)) == "stones_missing"


def test_an_empty_stall_and_a_stall_that_does_not_exist_are_refused() -> None:
    state = position("RGBWY" * 4, "", stalls=((), (1,), (2,), (3,)))
    assert refused(state, 0, Buy(0)) == "stall_empty"
    assert refused(state, 0, Buy(4)) == "no_such_stall"
    assert refused(state, 0, Buy(-1)) == "no_such_stall"


# -- the end ----------------------------------------------------------------------------------


def test_the_game_ends_when_the_24th_ware_is_sold() -> None:
    last = ware_id("RGBWW")
    state = replace(position("RGBWW", "", stalls=((), (), (last,), ())), scores=(4, 10))
    bought, ended = BAZAAR.decide(state, 0, Buy(2))
    assert isinstance(bought, WareBought) and bought.price.points == 8  # stalls empty: upper
    assert bought.revealed is None and bought.left_in_stall == 0
    assert ended == GameEnded(scores=(12, 10), winners=(0,), reason="sold_out")
    over = BAZAAR.fold(state, [bought, ended])
    assert BAZAAR.is_over(over) and BAZAAR.to_act(over) == frozenset()
    assert BAZAAR.legal(over, 0) == [] == BAZAAR.legal(over, 1)
    assert [s.seat for s in BAZAAR.standings(over) if s.rank == 1] == [0]
    with pytest.raises(GameOverError):
        BAZAAR.decide(over, 1, Draw())
    assert refused(over, 0, Draw()) == "game_over"


def test_equal_scores_share_the_win() -> None:
    state = replace(position("RGBWW", "", stalls=((), (), (ware_id("RGBWW"),), ())), scores=(2, 10))
    _, ended = BAZAAR.decide(state, 0, Buy(2))
    assert ended == GameEnded(scores=(10, 10), winners=(0, 1))
    over = BAZAAR.fold(state, [_, ended])
    assert [s.rank for s in BAZAAR.standings(over)] == [1, 1]


def test_a_solo_game_ends_the_same_way_and_reports_its_score() -> None:
    state = replace(position("YYYYY", stalls=((ware_id("YYYYY"),), (), (), ())), scores=(40,))
    events = BAZAAR.decide(state, 0, Buy(0))
    assert events[-1] == GameEnded(scores=(52,), winners=(0,))
    assert BAZAAR.scores(BAZAAR.fold(state, events)) == (52,)


def test_a_solo_game_plays_to_its_end() -> None:
    events = BAZAAR.start(Setup(seed=5, players=("solo",)))
    state = BAZAAR.replay(events)
    while not BAZAAR.is_over(state):
        command = BAZAAR.policies["normal"](BAZAAR.view(state, 0), 0, 0)
        new = BAZAAR.decide(state, 0, command)
        events += new
        state = BAZAAR.fold(state, new)
    assert len(state.sales) == 24 and state.scores[0] == sum(s.price.points for s in state.sales)
    assert isinstance(events[-1], GameEnded) and events[-1].scores == state.scores
    assert BAZAAR.replay(events) == state


# -- legal commands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("carpet", "phase"),
    [
        ("", "draw_or_trade"),
        ("RGBWY", "draw_or_trade"),
        ("RRGGBBWWYY", "draw_or_trade"),
        ("RRRBB", "buy_or_end"),
        ("RRGGBBWWYYRRGGBBWWYY", "buy_or_end"),
        ("", "choose_colour"),
    ],
)
def test_legal_lists_exactly_the_commands_the_rules_accept(carpet: str, phase: str) -> None:
    stalls = tuple((ware_id(w),) for w in ("RRRBB", "RGBWW", "GGGGG", "RRBBY"))
    state = position(carpet, "", stalls=stalls, phase=phase)  # type: ignore[arg-type]
    accepted = []
    for command in EVERY_COMMAND:
        try:
            BAZAAR.decide(state, 0, command)
        except RuleError:
            continue
        accepted.append(command)
    legal = BAZAAR.legal(state, 0)
    assert sorted(map(repr, legal)) == sorted(map(repr, accepted))
    assert len(legal) == len(set(legal)) > 0


def test_only_the_system_abandons_a_game_and_it_ends_with_the_standings_as_they_are() -> None:
    table = TABLES["bazaar"]  # the table around the game takes the system's `abandon`
    setup = Setup(seed=2, players=("a", "b"))
    events = table.start(setup, 0)
    begun = table.replay(events)
    state = SeatedState(replace(begun.game, scores=(3, 5)), begun.table)
    command = table.abandon()
    assert command == Abandon()
    with pytest.raises(TurnError):
        table.decide(state, state.game.order[0], command, 0)
    (ended,) = table.decide(state, None, command, 0)
    assert ended == GameEnded(scores=(3, 5), winners=(1,), reason="abandoned")
    assert table.cause(ended) == (None, Abandon())
    over = table.evolve(state, ended)
    assert table.is_over(over) and not table.to_act(over) and table.legal(over, 0, 0) == []
    with pytest.raises(GameOverError):
        table.decide(over, None, command, 0)
    fresh = table.replay(events)
    records = [Record(0, None, e) for e in [*events, *table.decide(fresh, None, command, 0)]]
    assert verify(table, setup, records) == table.fold(fresh, [r.event for r in records[1:]])
