// A finished game's result as recorded for its players (`GET /api/games/ID/result`): each
// player's rating change in a rated game. The worker records a game a moment after its end:
// until then the answer says `recorded: false`, and it is asked again, for a few seconds.
import { useState, useEffect } from "./lib.js";
import { api } from "./api.js";

const WAITS = [200, 300, 500, 800, 1000, 1500, 2000, 2000, 3000, 3000, 4000]; // about 18 s in all

/** A rated game's recorded seats, a Map seat → its line (`change`, `before`, `after`), once
 *  recorded; null until then, and for a game that moves no rating. */
export function useRatingChanges(view, gameId) {
  const wanted = view.status === "over" && !view.casual && view.seats.some((s) => s.player);
  const [lines, setLines] = useState(null);
  useEffect(() => {
    if (!wanted) return undefined;
    let stopped = false;
    let timer = null;
    let tries = 0;
    function again() {
      if (!stopped && tries < WAITS.length) timer = setTimeout(ask, WAITS[tries++]);
    }
    function ask() {
      api(`/api/games/${gameId}/result`).then((result) => {
        if (stopped) return;
        if (!result.recorded) again();
        else if (result.rated) setLines(new Map(result.seats.map((s) => [s.seat, s])));
      }, again);
    }
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [gameId, wanted]);
  return lines;
}
