"""The price table: what a purchase scores.

"Plus il y a de pierres en trop qui restent sur le tapis, moins on marque de points" and "Si au
moins une pile a été complètement vendue ... les prix du côté droit du tableau sont appliqués".
A stall counts as empty if it was empty before the purchase: the purchase that empties a stall
is still priced on the upper rows (the project's rules page).
"""

from __future__ import annotations

#: Points by (a stall is already empty, precious), for 0, 1, 2, and 3 or more stones left.
PRICES: dict[tuple[bool, bool], tuple[int, int, int, int]] = {
    (False, False): (5, 3, 2, 1),
    (False, True): (8, 5, 3, 2),
    (True, False): (8, 5, 3, 2),
    (True, True): (12, 8, 5, 3),
}


def points(precious: bool, left: int, stall_empty: bool) -> int:
    """The points of a purchase leaving `left` stones on the carpet."""
    return PRICES[stall_empty, precious][min(left, 3)]
