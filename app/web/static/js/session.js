// Who is logged in in this browser, for every screen at once.
//
// The session cookie is HttpOnly: the page cannot read it. The name of the player who logged
// in here is kept in localStorage as a hint; only then is `GET /api/me` asked (a guest is
// never answered 401), and a session that has ended meanwhile clears the hint.
import { useState, useEffect } from "./lib.js";
import { api, me } from "./api.js";

const HINT = "player";
let current = localStorage.getItem(HINT);
const listeners = new Set();

function become(name) {
  current = name;
  if (name) localStorage.setItem(HINT, name);
  else localStorage.removeItem(HINT);
  for (const listener of listeners) listener(name);
}

/** The logged-in player's name, or null; the screen is drawn again when it changes. */
export function usePlayer() {
  const [name, setName] = useState(current);
  useEffect(() => {
    listeners.add(setName);
    setName(current);
    return () => listeners.delete(setName);
  }, []);
  return name;
}

/** The name now, outside a component. */
export function playerName() {
  return current;
}

/** Ask the server whether the hinted session is still open. */
export async function checkSession() {
  if (!current) return;
  try {
    become((await me()).name);
  } catch (refused) {
    if (refused.status === 401) become(null);
  }
}

export async function logIn(name, password) {
  const player = await api("/api/session", { method: "POST", body: { name, password } });
  become(player.name);
}

export async function signUp(name, password) {
  const player = await api("/api/accounts", { method: "POST", body: { name, password } });
  become(player.name);
}

export async function logOut() {
  try {
    await api("/api/session", { method: "DELETE" });
  } finally {
    become(null);
  }
}

/** A session that the server no longer knows (an answer 401 `not_logged_in`): forget it. */
export function forget() {
  become(null);
}
