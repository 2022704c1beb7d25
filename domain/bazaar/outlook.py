"""The outlook of a ware: what aiming at it by drawing alone is worth, turn by turn.

The `hard` planner searches the next turns exactly and values the carpets it reaches beyond
that with these tables. For one ware, a carpet is summed up by the stones it still lacks
(`needed`, at most the ware's five) and the stones it holds beyond the ware (`spare`, capped
at 3: the price table stops there). Each turn draws one stone from the bag's six equally likely
faces: a needed colour lowers `needed`, another colour raises `spare`, the joker takes the most
useful colour; the draw that completes the ware buys it at once. A turn later is worth
`discount` times as much (the chance that the ware is still there and the game still on).

The value is exact for that plan (drawing only, then buying at the first chance), so it never
promises what a seat cannot reach; the planner's search adds the trades.
"""

from __future__ import annotations

import functools
from itertools import product

from domain.bazaar.prices import PRICES
from domain.bazaar.stones import COLOURS, Stones

FACES = len(COLOURS) + 1
MOST_SPARE = 3
#: The outlook of one ware: value by (stones needed, spare stones).
Outlook = dict[tuple[Stones, int], float]


def blended_prices(precious: bool, empty_share: float) -> tuple[float, ...]:
    """The price for 0, 1, 2 and 3+ spare stones, when a stall is empty with chance
    `empty_share` by the time of the purchase."""
    low, high = PRICES[False, precious], PRICES[True, precious]
    return tuple((1 - empty_share) * a + empty_share * b for a, b in zip(low, high, strict=True))


@functools.lru_cache(maxsize=1024)  # about 15 kB a table
def outlook(ware: Stones, precious: bool, discount: float, empty_share: float) -> Outlook:
    """The value of aiming at `ware` by drawing alone, at the start of a turn, for every
    (needed, spare); the arguments are rounded by the caller so that tables are shared."""
    prices = blended_prices(precious, empty_share)
    table: Outlook = {}
    needs = sorted(product(*(range(n + 1) for n in ware)), key=sum)
    for needed in needs:
        useful = [k for k, n in enumerate(needed) if n]
        if not useful:  # complete already: the turn's draw adds a spare stone, then it buys
            for spare in range(MOST_SPARE + 1):
                table[needed, spare] = prices[min(spare + 1, MOST_SPARE)]
            continue
        for spare in range(MOST_SPARE, -1, -1):
            gains = []
            for k in useful:
                less = tuple(n - (i == k) for i, n in enumerate(needed))
                gains.append(prices[spare] if not any(less) else discount * table[less, spare])
            hits = (sum(gains) + max(gains)) / FACES
            misses = (FACES - 1 - len(useful)) / FACES
            if spare == MOST_SPARE:  # a miss leaves the carpet where it was
                table[needed, spare] = hits / (1 - misses * discount)
            else:
                table[needed, spare] = hits + misses * discount * table[needed, spare + 1]
    return table
