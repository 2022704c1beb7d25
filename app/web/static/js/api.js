// The public HTTP API, as every program uses it: the same routes, tokens as bearer headers.

export class Refused extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A call of the API: JSON in, JSON out; a refusal throws `Refused` with the API's sentence. */
export async function api(path, { method = "GET", body, token, key } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let answer;
  try {
    answer = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Refused(0, "offline", "The server cannot be reached; check your connection.");
  }
  const text = await answer.text();
  const data = text ? JSON.parse(text) : null;
  if (!answer.ok) {
    throw new Refused(answer.status, data?.code ?? "error", data?.message ?? answer.statusText);
  }
  return data;
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
 * Follow a game's events live, by server-sent events. A seat opens its stream with a
 * single-use ticket (an EventSource cannot send the Authorization header, and the token
 * never goes into a URL). When the connection breaks, it says so and opens a new stream
 * after the last event it has: no event is missed or repeated.
 */
export function follow(gameId, { token, after = 0, onEntry, onStatus }) {
  let last = after;
  let source = null;
  let closed = false;
  let wait = 500;
  let timer = null;

  async function open() {
    if (closed) return;
    let url = `/api/games/${gameId}/stream?after=${last}`;
    try {
      if (token) {
        const { ticket } = await api(`/api/games/${gameId}/tickets`, { method: "POST", token });
        url += `&ticket=${encodeURIComponent(ticket)}`;
      }
    } catch (error) {
      retry();
      return;
    }
    if (closed) return;
    source = new EventSource(url);
    source.onopen = () => {
      wait = 500;
      onStatus("live");
    };
    source.onmessage = (message) => {
      const entry = JSON.parse(message.data);
      if (entry.version <= last) return; // already had it
      last = entry.version;
      onEntry(entry);
    };
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
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (source) source.close();
    },
    get last() {
      return last;
    },
  };
}
