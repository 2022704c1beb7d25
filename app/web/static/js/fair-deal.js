// The fair deal, at a game's end: the seed the service drew and its salt, revealed now, must
// hash (SHA-256 of "SEED:SALT") to the commitment every seat was shown from the start. The
// browser checks only that (with the Web Crypto API); replaying the game by its rules is the
// command's work (`python -m app verify FILE`), never the page's.
import { html, useState, useEffect } from "./lib.js";

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** "verified", "broken", "unchecked" (no Web Crypto: a page not served over HTTPS) or null
 *  while the browser hashes. */
function useCheck(deal) {
  const [found, setFound] = useState(null);
  useEffect(() => {
    if (!deal.seed || !deal.salt) return;
    if (!globalThis.crypto || !crypto.subtle) {
      setFound("unchecked");
      return;
    }
    sha256(`${deal.seed}:${deal.salt}`).then(
      (hash) => setFound(hash === deal.commitment ? "verified" : "broken"),
      () => setFound("unchecked"),
    );
  }, [deal.commitment, deal.seed, deal.salt]);
  return found;
}

const SAID = {
  verified: "the seed and salt revealed at the end hash to the commitment published at the start",
  broken: "the seed and salt revealed at the end do not hash to the commitment published at the start",
  unchecked: "this browser cannot hash here (a page served without HTTPS)",
};

export function FairDeal({ view, gameId }) {
  const deal = view.fair_deal;
  const found = useCheck(deal || {});
  if (!deal || !found) return null;
  const file = `${view.game}-${gameId}.json`;
  const heading = { verified: "Fair deal: verified", broken: "Fair deal: NOT verified", unchecked: "Fair deal" }[found];
  return html`
    <p class=${`fair-deal ${found}`}>
      <strong>${heading}</strong>: ${SAID[found]} (<code>${deal.commitment.slice(0, 16)}…</code>).
      To check the whole game by its rules, export its log and run <code>python -m app verify ${file}</code>.
    </p>`;
}
