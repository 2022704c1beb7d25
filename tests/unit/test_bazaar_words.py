"""Bazaar's events told in words (a log a person can read, the price with its basis), and the
hints of legal commands (what each purchase would score), so that a client works out no rule."""

from __future__ import annotations

from bazaar_builders import position, ware_id

from domain.bazaar.game import BAZAAR
from domain.bazaar.model import (
    Buy,
    ColourChosen,
    Draw,
    Drawn,
    EndTurn,
    GameEnded,
    GameStarted,
    Price,
    Traded,
    TurnEnded,
    WareBought,
)
from domain.bazaar.wares import ware
from domain.bazaar.words import group_words, plural
from domain.game import Setup

NAMES = ("Ann", "Bob", "Cy")


def test_the_deal_in_words_names_the_order_the_table_and_the_tops_only() -> None:
    (started,) = BAZAAR.start(Setup(seed=4, players=NAMES))
    assert isinstance(started, GameStarted) and started.stalls is not None
    for event in (started, BAZAAR.redact(started, 0)):
        text = BAZAAR.describe(event, NAMES)
        order = ", ".join(NAMES[s] for s in started.order)
        assert text.startswith(f"The game begins; turn order {order}. Exchange cards ")
        assert "1 red ⇄ 1 green + 1 blue + 1 yellow" in text or 0 not in started.cards
        assert all(f"({' + '.join(part(t.stones))})" in text for t in started.tops)
        assert "Four stalls of 6 wares show" in text
    assert BAZAAR.describe(started, NAMES) == BAZAAR.describe(BAZAAR.redact(started, 1), NAMES)


def part(stones: tuple[str, ...]) -> list[str]:
    return [f"{stones.count(c)} {c}" for c in dict.fromkeys(stones)]


def test_draws_colours_trades_and_turns_in_words() -> None:
    assert BAZAAR.describe(Drawn(1, "white"), NAMES) == "Bob draws a white stone."
    assert BAZAAR.describe(Drawn(2, "joker"), NAMES) == "Cy draws the joker."
    assert BAZAAR.describe(ColourChosen(2, "red"), NAMES) == "Cy takes a red stone for the joker."
    traded = Traded(0, 1, "left_to_right", ("red",), ("green", "blue", "yellow"))
    assert BAZAAR.describe(traded, NAMES) == (
        "Ann trades 1 red stone for 3 stones (1 green + 1 blue + 1 yellow)."
    )
    assert BAZAAR.describe(TurnEnded(0), NAMES) == "Ann ends the turn."


def test_a_purchase_in_words_gives_its_price_and_what_the_stall_shows_next() -> None:
    """The rules' example: a cheap ware, two stones left, every stall stocked: 2 points."""
    bought = WareBought(
        seat=1,
        stall=2,
        ware=ware(ware_id("RRRBB")),
        price=Price("cheap", 2, False, 2),
        left_in_stall=3,
        revealed=ware(ware_id("GGGGY")),
    )
    assert BAZAAR.describe(bought, NAMES) == (
        "Bob buys a cheap ware (3 red + 2 blue) from the third stall with 2 stones left, every "
        "stall stocked: 2 points; the third stall now shows a precious ware (4 green + 1 yellow) "
        "(3 wares left)."
    )
    last = WareBought(0, 0, ware(0), Price("precious", 0, True, 12), 0, None)
    assert BAZAAR.describe(last, NAMES) == (
        "Ann buys a precious ware (5 red) from the first stall with no stone left, a stall "
        "empty: 12 points; the first stall is empty."
    )


def test_the_end_in_words() -> None:
    won = GameEnded((40, 52, 52), (1, 2))
    assert BAZAAR.describe(won, NAMES) == (
        "The last ware is sold: the game is over. Scores: Ann 40 points, Bob 52 points, Cy 52 "
        "points."
    )
    assert BAZAAR.describe(GameEnded((61,), (0,)), NAMES[:1]) == (
        "The last ware is sold: the game is over. Scores: Ann 61 points."
    )
    assert BAZAAR.describe(GameEnded((3, 1), (0,), "last_round"), NAMES[:2]) == (
        "The last round is played: the game is over. Scores: Ann 3 points, Bob 1 point."
    )
    abandoned = GameEnded((1, 2), (1,), "abandoned")
    assert "abandoned" in BAZAAR.describe(abandoned, NAMES)


def test_every_event_of_a_game_reads_as_a_sentence() -> None:
    events = BAZAAR.start(Setup(seed=8, players=NAMES))
    state = BAZAAR.replay(events)
    while not BAZAAR.is_over(state):
        (seat,) = BAZAAR.to_act(state)
        new = BAZAAR.decide(state, seat, BAZAAR.policies["normal"](BAZAAR.view(state, seat), 0, 0))
        events += new
        state = BAZAAR.fold(state, new)
    for event in events:
        text = BAZAAR.describe(event, NAMES)
        assert text.endswith(".") and text != type(event).__name__


def test_hints_price_each_purchase_and_nothing_else() -> None:
    stalls = tuple((ware_id(w), 40) for w in ("RRRBB", "RRRRR", "GGGGG", "RGBWW"))
    state = position("RRRBBRW", "", stalls=stalls)
    legal = BAZAAR.legal(state, 0)
    assert legal == [Buy(0), EndTurn()]
    assert BAZAAR.hints(state, 0, legal) == [Price("cheap", 2, False, 2), None]
    early = position("RRRBB", "", stalls=stalls, phase="draw_or_trade")
    commands = BAZAAR.legal(early, 0)
    assert commands[0] == Draw() and BAZAAR.hints(early, 0, commands) == [None] * len(commands)
    assert BAZAAR.hint_type == Price | None


def test_counts_carry_their_nouns_one_and_many() -> None:
    """ "1 stone", "2 stones", "1 point", "1 ware": a count says its noun in the right number."""
    assert plural(1, "stone") == "1 stone" and plural(2, "stone") == "2 stones"
    assert plural(0, "point") == "0 points" and plural(1, "point") == "1 point"
    assert plural(1, "ware") == "1 ware" and plural(6, "ware") == "6 wares"
    assert group_words(("blue",)) == "1 blue stone"
    assert group_words(("red", "red")) == "2 red stones"
    assert group_words(("white", "red")) == "2 stones (1 red + 1 white)"
    assert group_words(()) == "no stone"


def test_the_log_words_say_one_and_many_rightly() -> None:
    one = Traded(1, 0, "right_to_left", ("white", "yellow"), ("blue",))
    assert BAZAAR.describe(one, NAMES) == (
        "Bob trades 2 stones (1 white + 1 yellow) for 1 blue stone."
    )
    two = Traded(2, 3, "left_to_right", ("green", "green"), ("red", "white"))
    assert BAZAAR.describe(two, NAMES) == (
        "Cy trades 2 green stones for 2 stones (1 red + 1 white)."
    )
    bought = WareBought(0, 1, ware(ware_id("RRRBB")), Price("cheap", 1, False, 1), 1, ware(3))
    text = BAZAAR.describe(bought, NAMES)
    assert "with 1 stone left, every stall stocked: 1 point;" in text
    assert text.endswith("(1 ware left).")
    assert BAZAAR.describe(GameEnded((1,), (0,)), NAMES[:1]).endswith("Ann 1 point.")
    two = BAZAAR.describe(GameEnded((1, 0), (0,)), NAMES[:2])
    assert two.endswith("Ann 1 point, Bob 0 points.")
