"""What each viewer sees: everything public (carpets, scores, the table, the stalls' tops and
counts, the turn's phase), what buying each top would score for the viewing seat, and nothing
of the wares under the tops, nor of the bag."""

from __future__ import annotations

import msgspec
from bazaar_builders import midgame, position, ware_id
from game_profiles import PROFILES
from msgspec.structs import replace

from domain.bazaar import exchange
from domain.bazaar.game import BAZAAR
from domain.bazaar.model import (
    Drawn,
    GameEnded,
    GameStarted,
    Price,
    WareBought,
)
from domain.bazaar.views import Carpet, Offer
from domain.bazaar.wares import ware
from domain.game import Setup


def test_carpets_scores_the_table_and_the_stalls_tops_are_public() -> None:
    state = midgame(1)
    for viewer in (None, 0, 1, 2):
        shown = BAZAAR.view(state, viewer)
        assert [s.score for s in shown.seats] == list(state.scores)
        assert [s.carpet for s in shown.seats] == [Carpet(*c) for c in state.carpets]
        assert [s.stones for s in shown.seats] == [sum(c) for c in state.carpets]
        assert shown.exchange == exchange.equations(state.cards)
        assert [s.top for s in shown.stalls] == [ware(s[0]) if s else None for s in state.stalls]
        assert [s.count for s in shown.stalls] == [len(s) for s in state.stalls]
        assert shown.to_play == state.seat_to_play and shown.phase == state.phase
        assert shown.sales == state.sales and shown.draws == state.draws
        assert shown.bag == ("red", "green", "blue", "white", "yellow", "joker")
        assert len(shown.prices) == 4 and shown.order == state.order


def test_no_view_shows_the_wares_under_the_tops_or_the_bag() -> None:
    scramble = PROFILES["bazaar"].scramble
    for seed in range(6):
        state = midgame(seed, steps=seed * 20)
        for viewer in (None, 0, 1, 2):
            twin = scramble(state, viewer, seed + 100)
            assert twin.stalls != state.stalls and twin.seed != state.seed
            assert BAZAAR.view(twin, viewer) == BAZAAR.view(state, viewer)
    encoded = msgspec.json.encode(BAZAAR.view(state, 0))
    assert b"seed" not in encoded


def test_the_viewing_seat_sees_what_buying_each_top_would_score_now() -> None:
    stalls = tuple((ware_id(w), 40) for w in ("RRRBB", "RRRRR", "GGGGG", "RGBWW"))
    state = position("RRRBBRW", "GGGGG", stalls=stalls)
    mine, theirs, nobody = (BAZAAR.view(state, v) for v in (0, 1, None))
    assert mine.stalls[0].offer == Offer(Price("cheap", 2, False, 2), (), can_buy=True)
    assert mine.stalls[1].offer == Offer(None, ("red",), can_buy=False)
    assert mine.stalls[2].offer == Offer(None, ("green",) * 5, can_buy=False)
    assert theirs.stalls[2].offer == Offer(Price("precious", 0, False, 8), (), can_buy=False)
    assert all(s.offer is None for s in nobody.stalls)
    early = BAZAAR.view(replace(state, phase="draw_or_trade"), 0)
    assert early.stalls[0].offer == Offer(Price("cheap", 2, False, 2), (), can_buy=False)


def test_an_empty_stall_has_no_top_and_the_prices_move_to_the_upper_rows() -> None:
    state = position("RRRBB", "", stalls=((ware_id("RRRBB"),), (), (2,), (3,)))
    shown = BAZAAR.view(state, 0)
    assert shown.stall_empty and shown.stalls[1].top is None and shown.stalls[1].count == 0
    assert shown.stalls[1].offer is None
    assert shown.stalls[0].offer == Offer(Price("cheap", 0, True, 8), (), can_buy=True)


def test_the_phase_and_the_joker_say_what_the_seat_to_play_may_do() -> None:
    state = position("", "", phase="draw_or_trade")
    assert (BAZAAR.view(state, 1).phase, BAZAAR.view(state, 1).joker) == ("draw_or_trade", False)
    joker = BAZAAR.evolve(state, Drawn(0, "joker"))
    assert (BAZAAR.view(joker, 1).phase, BAZAAR.view(joker, None).joker) == ("choose_colour", True)
    drawn = BAZAAR.evolve(state, Drawn(0, "red"))
    assert BAZAAR.view(drawn, 0).phase == "buy_or_end"
    over = BAZAAR.evolve(drawn, GameEnded((0, 0), (0, 1)))
    shown = BAZAAR.view(over, 0)
    assert (shown.phase, shown.joker, shown.to_play) == ("over", False, None)
    assert shown.ended == GameEnded((0, 0), (0, 1))


def test_the_deal_and_the_seed_are_redacted_from_every_viewer() -> None:
    (started_event,) = BAZAAR.start(Setup(seed=4, players=("a", "b")))
    assert isinstance(started_event, GameStarted) and started_event.stalls is not None
    for viewer in (None, 0, 1):
        shown = BAZAAR.redact(started_event, viewer)
        assert isinstance(shown, GameStarted)
        assert shown.stalls is None and shown.seed is None
        assert shown.tops == started_event.tops and shown.counts == (6, 6, 6, 6)
        assert shown.exchange == started_event.exchange and shown.order == started_event.order
    assert not PROFILES["bazaar"].event_leaks(BAZAAR.redact(started_event, 0), 0)
    assert PROFILES["bazaar"].event_leaks(started_event, 0) == ["stalls", "seed"]


def test_play_events_are_public_and_tell_what_happened() -> None:
    state = position("RRRBB", "", stalls=((ware_id("RRRBB"), 7), (1,), (2,), (3,)))
    (bought,) = BAZAAR.decide(state, 0, BAZAAR.legal(state, 0)[0])
    assert isinstance(bought, WareBought)
    for viewer in (None, 0, 1):
        assert BAZAAR.redact(bought, viewer) == bought
    assert bought.revealed == ware(7)  # a client following the events sees the new top
    drawn = Drawn(1, "blue")
    assert BAZAAR.redact(drawn, 0) == drawn
