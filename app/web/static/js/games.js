// The games this client can draw, by the name the API gives them.
import { CRAZYMINO } from "./crazymino.js";
import { BAZAAR } from "./bazaar.js";
import { MONDO } from "./mondo.js";

export const GAMES = {
  crazymino: CRAZYMINO,
  bazaar: BAZAAR,
  mondo: MONDO,
};
