"""What an AI reads from its own seat's view: its board as laid, the border, the free display
tiles, and what one more volcano would cost it. Shared by every level (`ai`, `hard`)."""

from __future__ import annotations

from domain.mondo.board import SPACES
from domain.mondo.faces import LANDSCAPES, Four, Oriented, face_index, oriented
from domain.mondo.views import MondoView


def seat_of(view: MondoView) -> int:
    return view.viewer if view.viewer is not None else 0


def laid(view: MondoView, seat: int) -> list[Oriented | None]:
    """The seat's board: each space's face as laid, or None."""
    out: list[Oriented | None] = [None] * SPACES
    for placed in view.seats[seat].board:
        face = placed.face
        out[placed.space] = oriented(face.tile, face.face, face.rotation)
    return out


def borders(view: MondoView) -> Four:
    n, e, s, w = (LANDSCAPES.index(x) for x in view.border)
    return n, e, s, w


def free_tiles(view: MondoView) -> list[tuple[int, tuple[int, ...]]]:
    """The display tiles nobody holds, each with the face it shows (as a person sees it)."""
    return [(d.shown.tile, (face_index(d.shown.face),)) for d in view.display if d.holder is None]


def volcano_worth(view: MondoView, seat: int) -> tuple[float, float, float]:
    """What one more volcano of each kind (none, active, inactive) would cost this seat now:
    the player(s) with the most counted volcanoes lose one point each; inactive ones count
    from round 2 for the previous round's leader(s)."""
    mine = view.seats[seat].score_now.volcano_count
    others = max((s.score_now.volcano_count for s in view.seats if s.seat != seat), default=0)
    leader = False
    if view.last_round and view.round > 1:
        best = max(s.total for s in view.last_round)
        leader = view.last_round[seat].total == best

    def penalty(count: int) -> int:
        return -count if count >= others and count > 0 else 0

    one_more = float(penalty(mine + 1) - penalty(mine))
    return 0.0, one_more, one_more if leader else 0.0
