"""Mondo's events in words, as the game log shows them; a round's end with every line of every
player's score."""

from __future__ import annotations

from collections.abc import Sequence

from domain.mondo.board import COLUMNS
from domain.mondo.faces import LANDSCAPES, SPECIES, FaceName, oriented
from domain.mondo.model import (
    BonusTaken,
    Event,
    GameEnded,
    GameStarted,
    PlacedLifted,
    PlacedTurned,
    RoundEnded,
    RoundStarted,
    TaskTaken,
    TilePlaced,
    TileReturned,
    TileTaken,
)
from domain.mondo.scoring import Score
from domain.mondo.specials import Special
from domain.mondo.tasks import Task

#: The special scorings and tasks by their names in the rules (the seed's cards, in English);
#: the table shows the same names (app/web/static/js/mondo-words.js).
SPECIAL_NAMES: dict[Special, str] = {
    "most_regions": "The most regions",
    "most_seas": "The most seas",
    "most_sea_animals": "The most sea animals",
    "largest_sea": "The largest sea",
    "largest_forest": "The largest forest",
}
TASK_NAMES: dict[Task, str] = {
    "three_buffalo": "Three of a kind: buffaloes",
    "three_elephant": "Three of a kind: elephants",
    "three_panda": "Three of a kind: pandas",
    "three_parrot": "Three of a kind: parrots",
    "three_snake": "Three of a kind: snakes",
    "three_scorpion": "Three of a kind: scorpions",
    "four_steppe": "Four animals in one: steppe",
    "four_forest": "Four animals in one: forest",
    "four_desert": "Four animals in one: desert",
    "error_free_board": "Error-free board",
    "finished_in_time": "Finished in time",
    "first_to_finish": "First to finish",
}


def face_words(tile: int, face: FaceName) -> str:
    """`tile 12 (forest and water, a panda, an active volcano)`."""
    shown = oriented(tile, face, 0)
    kinds = sorted({LANDSCAPES[k] for k in shown.kinds}, key=LANDSCAPES.index)
    parts = [" and ".join(kinds)]
    if shown.animal >= 0:
        species = SPECIES[shown.animal]
        parts.append(f"{'an' if species[0] in 'aeiou' else 'a'} {species}")
    if shown.volcano:
        parts.append(f"an {'active' if shown.volcano == 1 else 'inactive'} volcano")
    return f"tile {tile} ({', '.join(parts)})"


def score_words(score: Score) -> str:
    """Every line of one player's round score."""
    lines = [
        f"{score.animals} for animals",
        f"{score.landscapes} for closed landscapes",
        f"{score.bonus} for the bonus chip",
        f"{score.volcanoes} for volcanoes ({score.volcano_count} counted)",
        f"{score.empty_spaces} for empty spaces",
        f"{score.closure_errors} for closure errors",
    ]
    if score.special:
        lines.append(f"{score.special} for the special scoring ({score.special_count})")
    for task in score.tasks:
        done = "fulfilled" if task.fulfilled else "not fulfilled"
        lines.append(f"{task.points} for the task {TASK_NAMES[task.task]} ({done})")
    return f"{score.total} ({'; '.join(lines)})"


def describe(event: Event, names: Sequence[str]) -> str:
    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "Someone"

    match event:
        case GameStarted():
            kinds = [k for k, on in (("advanced", event.advanced), ("expert", event.expert)) if on]
            mode = f" ({', '.join(kinds)})" if kinds else ""
            side = "back side" if event.backside else "standard side"
            return (
                f"The game begins{mode}: {event.rounds} rounds of {event.round_ms // 1000} s on "
                f"the {side} of the world boards."
            )
        case RoundStarted():
            extra = f"; special scoring: {SPECIAL_NAMES[event.special]}" if event.special else ""
            if event.tasks:
                extra += f"; tasks: {', '.join(TASK_NAMES[t] for t in event.tasks)}"
            return f"Round {event.round} begins{extra}."
        case TileTaken(seat=seat, tile=tile):
            return f"{who(seat)} takes tile {tile}."
        case TileReturned(seat=seat, tile=tile):
            return f"{who(seat)} puts tile {tile} back."
        case TilePlaced(seat=seat, tile=tile, space=space, face=face, rotation=rotation):
            row, col = divmod(space, COLUMNS)
            turned = f", turned {rotation}°" if rotation else ""
            where = f"row {row + 1}, column {col + 1}"
            return f"{who(seat)} lays {face_words(tile, face)} on {where}{turned}."
        case PlacedTurned(seat=seat, tile=tile, rotation=rotation):
            return f"{who(seat)} turns tile {tile} to {rotation}°."
        case PlacedLifted(seat=seat, tile=tile):
            return f"{who(seat)} lifts tile {tile} back into their hand."
        case BonusTaken(seat=seat, chip=chip, full_board=full, lowest=lowest):
            why = " (their board is full)" if full else " (they left the table)" if lowest else ""
            return f"{who(seat)} takes the bonus chip {chip} and leaves the round{why}."
        case TaskTaken(seat=seat, task=task):
            return f"{who(seat)} takes the task {TASK_NAMES[task]}."
        case RoundEnded():
            how = "time is up" if event.timed_out else "every player has left it"
            lines = "; ".join(
                f"{who(s)} {score_words(score)}" for s, score in enumerate(event.scores)
            )
            return f"Round {event.round} ends ({how}). Scores: {lines}."
        case GameEnded(totals=totals, abandoned=abandoned):
            if abandoned:
                return "The game ends here, with the scores as they stand (abandoned, or resigned)."
            final = ", ".join(f"{who(s)} {t}" for s, t in enumerate(totals))
            return f"The game is over: {final}."
    return type(event).__name__
