// The games this client can draw, by the name the API gives them.
import { CRAZYMINO } from "./crazymino.js";

export const GAMES = {
  crazymino: CRAZYMINO,
};
