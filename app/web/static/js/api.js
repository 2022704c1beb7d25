// The public HTTP API, as every program uses it: the same routes, tokens as bearer headers.
// A logged-in player's browser brings its session cookie instead; every write it makes
// carries the CSRF cookie's value in `X-CSRFToken` (docs/api.md, "Players").

export class Refused extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const CSRF_COOKIE = "csrftoken";

function cookie(name) {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : null;
}

/** The CSRF token for a write; a read without an Authorization header sets its cookie. */
async function csrfToken() {
  if (!cookie(CSRF_COOKIE)) await fetch("/api/games/types");
  return cookie(CSRF_COOKIE);
}

/** A call of the API: JSON in, JSON out; a refusal throws `Refused` with the API's sentence. */
export async function api(path, { method = "GET", body, token, key } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let answer;
  try {
    if (method !== "GET") {
      const csrf = await csrfToken();
      if (csrf) headers["X-CSRFToken"] = csrf;
    }
    answer = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Refused(0, "offline", "The server cannot be reached; check your connection.");
  }
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!answer.ok) {
    throw new Refused(answer.status, data?.code ?? "error", data?.message ?? answer.statusText);
  }
  return data;
}

/** Who is logged in in this browser: `{name}`, or a `Refused` 401 `not_logged_in`. */
export function me() {
  return api("/api/me");
}

/** A fresh Idempotency-Key: a command sent again with it is applied once. */
export function newKey() {
  return crypto.randomUUID();
}

/** The seat token a seat link carries in its fragment (`#t=TOKEN`), never sent in a URL. */
export function tokenFromFragment() {
  const found = new URLSearchParams(location.hash.slice(1)).get("t");
  return found || null;
}

/**
 * An EventSource that comes back: when the connection breaks it says so and opens a new one
 * after a growing wait. `url()` gives the address of each new connection (it may ask the API
 * for something first); `listen(source)` adds the listeners of each.
 */
function lasting({ url, listen, onStatus }) {
  let source = null;
  let closed = false;
  let wait = 500;
  let timer = null;

  async function open() {
    if (closed) return;
    let address;
    try {
      address = await url();
    } catch (error) {
      retry();
      return;
    }
    if (closed) return;
    source = new EventSource(address);
    source.onopen = () => {
      wait = 500;
      onStatus("live");
    };
    listen(source);
    source.onerror = () => {
      source.close();
      retry();
    };
  }

  function retry() {
    if (closed) return;
    onStatus("reconnecting");
    timer = setTimeout(open, wait);
    wait = Math.min(wait * 2, 8000);
  }

  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    if (source) source.close();
  };
}

/**
 * Follow a game's events live, by server-sent events. A seat opens its stream with a
 * single-use ticket (an EventSource cannot send the Authorization header, and the token
 * never goes into a URL); a logged-in player's stream needs none: the browser sends its
 * session cookie. After a break it opens a new stream after the last event it has: no event
 * is missed or repeated. The table's chat comes on the same stream (`chat` events, to
 * `onChat`): each connection brings the messages after `chatAfter()`, then each new one.
 */
export function follow(gameId, { token, after = 0, onEntry, onStatus, onChat, chatAfter = () => 0 }) {
  let last = after;
  const close = lasting({
    onStatus,
    url: async () => {
      let url = `/api/games/${gameId}/stream?after=${last}`;
      if (onChat) url += `&chat_after=${chatAfter()}`;
      if (token) {
        const { ticket } = await api(`/api/games/${gameId}/tickets`, { method: "POST", token });
        url += `&ticket=${encodeURIComponent(ticket)}`;
      }
      return url;
    },
    listen: (source) => {
      source.onmessage = (message) => {
        const entry = JSON.parse(message.data);
        if (entry.version <= last) return; // already had it
        last = entry.version;
        onEntry(entry);
      };
      if (onChat) source.addEventListener("chat", (message) => onChat(JSON.parse(message.data)));
    },
  });
  return {
    close,
    get last() {
      return last;
    },
  };
}

/** Follow the tables being formed: `onTables(list)` at every change (`tables` events). */
export function followTables({ onTables, onStatus = () => {} }) {
  return lasting({
    onStatus,
    url: async () => "/api/tables/stream",
    listen: (source) => {
      source.addEventListener("tables", (message) => onTables(JSON.parse(message.data).tables));
    },
  });
}
