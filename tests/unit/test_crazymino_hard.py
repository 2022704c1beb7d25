"""The `hard` AI: legal, blind to what its seat cannot see, reproducible, and looking ahead.

Its search board (`sketch`) and its deals of the unseen tiles (`deal`) are checked here too.
"""

from __future__ import annotations

import random

import pytest
from crazymino_builders import state as built
from game_profiles import PROFILES
from msgspec.structs import replace
from test_crazymino_fast_paths import POSITIONS, grown

from domain.chance import Dice
from domain.crazymino import ai
from domain.crazymino.board import TILE_CORNERS, TILE_SUM, lay, placings, score
from domain.crazymino.deal import deal, own_hand, unseen
from domain.crazymino.fits import TILE_TURNS, hand_turns
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import ROTATIONS, cell_index, rotate
from domain.crazymino.hard import hand_sum, hard, sketch_of
from domain.crazymino.model import DrawAndPass, PlaceTile, State
from domain.crazymino.sketch import Sketch
from domain.crazymino.tables import TILES
from domain.game import Setup


def played(seed: int, seats: int, steps: int) -> State:
    """A game after `steps` commands of random legal play."""
    rng = random.Random(seed)
    state = CRAZYMINO.replay(
        CRAZYMINO.start(Setup(seed=seed, players=("a", "b", "c", "d")[:seats]))
    )
    for _ in range(steps):
        if CRAZYMINO.is_over(state):
            break
        (seat,) = CRAZYMINO.to_act(state)
        state = CRAZYMINO.fold(
            state, CRAZYMINO.decide(state, seat, rng.choice(CRAZYMINO.legal(state, seat)))
        )
    return state


GAMES = [(seed, 2 + seed % 3, seed * 7 % 50) for seed in range(24)]


@pytest.mark.parametrize(("seed", "seats", "steps"), GAMES)
def test_hard_sends_a_legal_command_that_only_its_view_decides(
    seed: int, seats: int, steps: int
) -> None:
    state = played(seed, seats, steps)
    if CRAZYMINO.is_over(state):
        pytest.skip("the game ended")
    (seat,) = CRAZYMINO.to_act(state)
    twin = PROFILES["crazymino"].scramble(state, seat, seed)  # other hands and pile shuffled
    assert CRAZYMINO.view(twin, seat) == CRAZYMINO.view(state, seat)
    command = hard(CRAZYMINO.view(state, seat), seed)
    assert command in CRAZYMINO.legal(state, seat)
    assert hard(CRAZYMINO.view(twin, seat), seed) == command
    assert hard(CRAZYMINO.view(state, seat), seed) == command  # the same entropy, the same move


def test_hard_plays_whole_games_with_legal_commands() -> None:
    for seed in range(3):
        state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=seed, players=("a", "b", "c"))))
        while not CRAZYMINO.is_over(state):
            (seat,) = CRAZYMINO.to_act(state)
            command = hard(CRAZYMINO.view(state, seat), seed)
            assert command in CRAZYMINO.legal(state, seat)
            state = CRAZYMINO.fold(state, CRAZYMINO.decide(state, seat, command))


def test_the_entropy_picks_the_deals() -> None:
    state = played(4, 2, 10)
    (seat,) = CRAZYMINO.to_act(state)
    view = CRAZYMINO.view(state, seat)
    hidden = unseen(view)
    first, second = deal(view, hidden, Dice(1)), deal(view, hidden, Dice(2))
    assert first.hands[seat] == second.hands[seat] and first.hands != second.hands
    again = deal(view, hidden, Dice(1))
    assert (again.hands, again.pile) == (first.hands, first.pile)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_deal_is_what_the_view_allows(seats: int) -> None:
    state = played(seats, seats, 25)
    (seat,) = CRAZYMINO.to_act(state)
    view = CRAZYMINO.view(state, seat)
    on_board = [p.tile for p in view.placements]
    hidden = unseen(view)
    assert sorted(on_board + list(own_hand(view)) + hidden) == list(range(len(TILES)))
    dice = Dice(9)
    for _ in range(20):
        dealt = deal(view, hidden, dice)
        assert dealt.hands[seat] == hand_turns(state.hands[seat])
        tiles = [tile_ids(h) for s, h in enumerate(dealt.hands) if s != seat]
        assert [len(t) for t in tiles] == [v.hand_size for v in view.seats if v.seat != seat]
        assert len(dealt.pile) == view.pile_size
        assert sorted([t for hand in tiles for t in hand] + list(dealt.pile)) == hidden


def tile_ids(turns: int) -> list[int]:
    return [tile for tile in range(len(TILES)) if turns & TILE_TURNS[tile]]


def test_hard_draws_when_nothing_fits() -> None:
    state = played(7, 2, 6)
    (seat,) = CRAZYMINO.to_act(state)
    hands = tuple(() if s == seat else h for s, h in enumerate(state.hands))
    nothing = replace(state, hands=hands)
    assert hard(CRAZYMINO.view(nothing, seat), 0) == DrawAndPass()


# -- looking ahead ---------------------------------------------------------------------------

#: One tile at (12, 12), diagonal to the ×5 cell (11, 11). Laying on (11, 12) or (12, 11)
#: gives (11, 11) a second numbered corner: the next seat can then score ×5 there.
START = {(12, 12): (1, 2, 3, 4)}
OPENING = {cell_index(11, 12), cell_index(12, 11)}


@pytest.mark.parametrize(("best", "other"), [(37, 51), (18, 36), (45, 107), (39, 56)])
def test_hard_does_not_open_a_times_five_cell_for_a_few_points(best: int, other: int) -> None:
    rest = [t for t in range(1, len(TILES)) if t not in (best, other)]
    board = built(START, hands=((),))
    spare = [t for t in rest if not placings(board.cells, board.points, (t,))][:6]
    rest = [t for t in rest if t not in spare]  # spare tiles fit nowhere yet: no race to the end
    hand = (best, other, *spare)
    game = built(START, hands=(hand, tuple(rest[:20])), pile=tuple(rest[20:]))
    greedy = ai.best(CRAZYMINO.view(game, 0))
    assert isinstance(greedy, PlaceTile) and cell_index(greedy.row, greedy.col) in OPENING
    safe = [
        score(game.cells, game.points, t, c).total
        for t, _, c in placings(game.cells, game.points, hand)
        if c not in OPENING
    ]
    gained = CRAZYMINO.decide(game, 0, greedy)[0].score.total  # type: ignore[union-attr]
    assert 0 < gained - max(safe) <= 4  # the greedy move is only a little better
    for entropy in range(6):
        command = hard(CRAZYMINO.view(game, 0), entropy)
        assert isinstance(command, PlaceTile)
        assert cell_index(command.row, command.col) not in OPENING


@pytest.mark.parametrize(("greedy", "keeper"), [(47, 39), (56, 9)])
def test_hard_keeps_the_tile_that_still_fits_when_two_are_left(greedy: int, keeper: int) -> None:
    """Laying `greedy` scores more but leaves `keeper` with nowhere to go; laying `keeper`
    leaves `greedy` several places, so the next turn lays the last tile and takes the bonus."""
    rest = [t for t in range(1, len(TILES)) if t not in (greedy, keeper)]
    game = built(START, hands=((greedy, keeper), tuple(rest[:20])), pile=tuple(rest[20:]))
    chosen = ai.best(CRAZYMINO.view(game, 0))
    assert isinstance(chosen, PlaceTile) and chosen.tile == greedy
    assert not placings(*laid(game, chosen), (keeper,))
    assert any(
        len(placings(*laid(game, PlaceTile(keeper, r, *divmod(c, 14))), (greedy,))) >= 3
        for t, r, c in placings(game.cells, game.points, (keeper,))
    )
    for entropy in range(4):
        command = hard(CRAZYMINO.view(game, 0), entropy)
        assert isinstance(command, PlaceTile) and command.tile == keeper


def laid(game: State, command: PlaceTile) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board after a placement."""
    corners = rotate(TILE_CORNERS[command.tile], command.rotation)
    cell = cell_index(command.row, command.col)
    return lay(game.cells, game.points, command.tile, cell, corners)


# -- the search board -------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "tiles", "seats"), POSITIONS[::8])
def test_the_sketch_scores_as_the_rules_do_while_tiles_are_laid(
    seed: int, tiles: int, seats: int
) -> None:
    position = grown(seed, tiles, seats)
    sketch = Sketch.of(position.cells, position.points)
    rng = random.Random(seed)
    everything = tuple(range(len(TILES)))
    for _ in range(8):
        found = sorted(
            (turn >> 2, ROTATIONS[turn & 3], cell, total)
            for total, turn, cell in sketch.placings(hand_turns(everything))
        )
        expected = sorted(
            (t, r, c, score(sketch.cells, sketch.points, t, c).total)
            for t, r, c in placings(sketch.cells, sketch.points, everything)
        )
        assert found == expected
        if not found:
            break
        best = max(found, key=lambda f: f[3])
        assert sketch.best(hand_turns(everything))[0] == best[3]
        tile, rotation, cell, _ = rng.choice(found)
        sketch.lay(4 * tile + ROTATIONS.index(rotation), cell)
        assert sketch.points[cell + cell // 14] == rotate(TILE_CORNERS[tile], rotation)[0]


def test_a_sketch_copy_is_apart_from_its_original() -> None:
    position = grown(3, 20)
    sketch = Sketch.of(position.cells, position.points)
    twin = sketch.copy()
    _, turn, cell = twin.best(hand_turns(range(len(TILES))))
    twin.lay(turn, cell)
    assert sketch.cells == list(position.cells) and sketch.points == list(position.points)
    assert cell in sketch.open and cell not in twin.open


def test_hand_sum_and_the_sketch_of_a_view() -> None:
    state = played(5, 3, 20)
    view = CRAZYMINO.view(state, 0)
    sketch = sketch_of(view)
    assert sketch.cells == list(state.cells) and sketch.points == list(state.points)
    assert hand_sum(hand_turns(state.hands[0])) == sum(TILE_SUM[t] for t in state.hands[0])
