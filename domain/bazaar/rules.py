"""Bazaar as a decider: `start`, `decide` and `evolve`.

A turn (the seed's "Déroulement du jeu"): exactly one draw or one trade (a joker's colour is
chosen before anything else), then at most one purchase, which ends the turn; otherwise the
player ends it. The game ends when the 24th ware is sold.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.bazaar import exchange
from domain.bazaar.errors import (
    AlreadyDrewOrTraded,
    BuyBeforeDrawOrTrade,
    ColourPending,
    EndBeforeDrawOrTrade,
    NoJoker,
    NoSuchColour,
    NoSuchEquation,
    NoSuchStall,
    StallEmpty,
    StonesMissing,
)
from domain.bazaar.model import (
    DIRECTIONS,
    VERSIONS,
    Buy,
    ChooseColour,
    ColourChosen,
    Command,
    Draw,
    Drawn,
    Ending,
    EndTurn,
    Event,
    GameEnded,
    GameStarted,
    State,
    Trade,
    Traded,
    TurnEnded,
    WareBought,
)
from domain.bazaar.stones import (
    COLOURS,
    JOKER_FACE,
    Stones,
    from_names,
    holds,
    minus,
    names,
    plus,
    stone,
)
from domain.bazaar.tables import EXCHANGE_CARDS, WARES
from domain.bazaar.wares import STALLS, WARE_STONES, WARES_PER_STALL, price, ware
from domain.chance import Dice, at_step
from domain.errors import GameOverError, RuleError, TurnError
from domain.game import Setup, rank

MIN_SEATS, MAX_SEATS = 1, 6
#: The most rounds a game lasts (from version 2 of the rules): it ends after every seat's
#: 300th turn if the wares are not sold out before. A game played to win ends long before (six
#: players of the normal AI: about 30 rounds; of the easy one, which plays at random: about 200).
ROUNDS = 300


def start(setup: Setup) -> list[Event]:
    """Draw the seating order, two exchange cards and the 24 wares of the four stalls."""
    seats = len(setup.players)
    dice = Dice(setup.seed)
    order = tuple(dice.shuffled(range(seats)))
    cards = tuple(dice.shuffled(range(len(EXCHANGE_CARDS)))[: exchange.CARDS_PER_GAME])
    dealt = dice.shuffled(range(len(WARES)))[: STALLS * WARES_PER_STALL]
    stalls = tuple(
        tuple(dealt[s * WARES_PER_STALL : (s + 1) * WARES_PER_STALL]) for s in range(STALLS)
    )
    return [
        GameStarted(
            players=tuple(setup.players),
            order=order,
            cards=cards,
            exchange=exchange.equations(cards),
            tops=tuple(ware(stall[0]) for stall in stalls),
            counts=tuple(len(stall) for stall in stalls),
            stalls=stalls,
            seed=setup.seed,
            rules=VERSIONS.current,
        )
    ]


def decide(state: State, seat: int | None, command: Command) -> list[Event]:
    """The events of a seat's command, or the `RuleError` that forbids it."""
    if state.ended is not None:
        raise GameOverError("The game is over.")
    if seat is None or seat != state.seat_to_play:
        raise TurnError("It is not your turn.")
    if isinstance(command, ChooseColour):
        return [_colour_chosen(state, seat, command)]
    if state.phase == "choose_colour":
        raise ColourPending("Choose the colour of your joker first.")
    match command:
        case Draw():
            return [_drawn(state, seat)]
        case Trade():
            return [_traded(state, seat, command)]
        case Buy():
            return _bought(state, seat, command)
        case EndTurn():
            if state.phase == "draw_or_trade":
                raise EndBeforeDrawOrTrade("Draw a stone or make a trade before ending your turn.")
            return _last_round(state, [TurnEnded(seat)])
    raise RuleError("Bazaar has no such command.")


def _colour_chosen(state: State, seat: int, command: ChooseColour) -> ColourChosen:
    """ "on a pioché un joker et on peut choisir une pierre de la couleur de son choix" """
    if state.phase != "choose_colour":
        raise NoJoker("You have no joker to choose a colour for.")
    if command.colour not in COLOURS:
        raise NoSuchColour(f"The stones are {', '.join(COLOURS)}.")
    return ColourChosen(seat, command.colour)


def _drawn(state: State, seat: int) -> Drawn:
    """ "En cliquant sur le coffre au trésor on peut piocher une pierre": one of six equally
    likely faces (five colours, the joker), from the game's chance at its next step."""
    if state.phase != "draw_or_trade":
        raise AlreadyDrewOrTraded("You have already drawn or traded this turn.")
    face = at_step(state.seed, state.draws).below(len(COLOURS) + 1)
    return Drawn(seat, "joker" if face == JOKER_FACE else COLOURS[face])


def _traded(state: State, seat: int, command: Trade) -> Traded:
    """ "Le tableau d'échanges ... fonctionne dans les deux sens": pay one side, take the other."""
    if state.phase != "draw_or_trade":
        raise AlreadyDrewOrTraded("You have already drawn or traded this turn.")
    count = len(exchange.table(state.cards))
    if not 0 <= command.equation < count or command.direction not in DIRECTIONS:
        raise NoSuchEquation(f"The table's equations are numbered 0 to {count - 1}.")
    gave, took = exchange.trade(state.cards, command.equation, command.direction)
    if not holds(state.carpets[seat], gave):
        raise StonesMissing("Your carpet lacks the stones this trade pays.")
    return Traded(seat, command.equation, command.direction, names(gave), names(took))


def _bought(state: State, seat: int, command: Buy) -> list[Event]:
    """ "Un achat, sans avoir d'abord pioché ou échangé n'est pas autorisé"; "lorsque l'on a
    effectué un achat, le jeu passe automatiquement au joueur suivant"; "lorsque les 24
    combinaisons de pierres ont toutes été achetées, le jeu s'arrête"."""
    if state.phase == "draw_or_trade":
        raise BuyBeforeDrawOrTrade("Draw a stone or make a trade before buying.")
    if not 0 <= command.stall < len(state.stalls):
        raise NoSuchStall(f"The stalls are numbered 0 to {len(state.stalls) - 1}.")
    stall = state.stalls[command.stall]
    if not stall:
        raise StallEmpty("That stall has no ware left.")
    carpet, stones = state.carpets[seat], WARE_STONES[stall[0]]
    if not holds(carpet, stones):
        raise StonesMissing("Your carpet lacks stones of this ware.")
    bought = WareBought(
        seat=seat,
        stall=command.stall,
        ware=ware(stall[0]),
        price=price(stall[0], sum(minus(carpet, stones)), any(not s for s in state.stalls)),
        left_in_stall=len(stall) - 1,
        revealed=ware(stall[1]) if len(stall) > 1 else None,
    )
    if sum(len(s) for s in state.stalls) > 1:
        return _last_round(state, [bought])
    return [bought, ended(evolve(state, bought).scores, "sold_out")]


def _last_round(state: State, turn: list[Event]) -> list[Event]:
    """The turn's end, and the game's when it ends the last round (`ROUNDS`: from version 2 of
    the rules, so that a game nobody brings to its end still ends, its log bounded)."""
    if state.rules < 2 or state.turns + 1 < ROUNDS * len(state.order):
        return turn
    return [*turn, ended(evolve(state, turn[-1]).scores, "last_round")]


def ended(scores: tuple[int, ...], reason: Ending) -> GameEnded:
    """The game's end with these scores: the winners share the highest."""
    winners = tuple(sorted(s.seat for s in rank(scores) if s.rank == 1))
    return GameEnded(scores, winners, reason)


def _with(values: tuple[Stones, ...], seat: int, carpet: Stones) -> tuple[Stones, ...]:
    return (*values[:seat], carpet, *values[seat + 1 :])


def _next_turn(state: State) -> int:
    return (state.turn + 1) % len(state.order)


def _gained(state: State, seat: int, colour: int) -> State:
    """A stone of the colour lands on the seat's carpet: it may buy now, or end its turn."""
    carpets = _with(state.carpets, seat, plus(state.carpets[seat], stone(colour)))
    return replace(state, carpets=carpets, phase="buy_or_end")


def evolve(state: State, event: Event) -> State:
    """The state after one event. Trusts the event: it was decided before it was stored."""
    match event:
        case Drawn(seat=seat, face=face):
            if face == "joker":
                return replace(state, draws=state.draws + 1, phase="choose_colour")
            return _gained(replace(state, draws=state.draws + 1), seat, COLOURS.index(face))
        case ColourChosen(seat=seat, stone=colour):
            return _gained(state, seat, COLOURS.index(colour))
        case Traded(seat=seat, gave=gave, took=took):
            carpet = plus(minus(state.carpets[seat], from_names(gave)), from_names(took))
            return replace(state, carpets=_with(state.carpets, seat, carpet), phase="buy_or_end")
        case WareBought(seat=seat, stall=number, ware=bought, price=paid):
            carpet = minus(state.carpets[seat], from_names(bought.stones))
            scores = list(state.scores)
            scores[seat] += paid.points
            stalls = list(state.stalls)
            stalls[number] = stalls[number][1:]
            return replace(
                state,
                carpets=_with(state.carpets, seat, carpet),
                scores=tuple(scores),
                stalls=tuple(stalls),
                sales=(*state.sales, event),
                turn=_next_turn(state),
                phase="draw_or_trade",
                turns=state.turns + 1,
            )
        case TurnEnded():
            return replace(
                state, turn=_next_turn(state), phase="draw_or_trade", turns=state.turns + 1
            )
        case GameEnded():
            return replace(state, ended=event)
        case GameStarted():
            seats = len(event.players)
            return State(
                players=event.players,
                order=event.order,
                cards=event.cards,
                stalls=event.stalls or (),
                carpets=(tuple(0 for _ in COLOURS),) * seats,
                scores=(0,) * seats,
                seed=event.seed or 0,
                rules=VERSIONS.of(event.rules),
            )
    return state
