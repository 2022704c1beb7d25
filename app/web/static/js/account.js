// Accounts: logging in, signing up, and the account page (the password, personal tokens).
import { html, useState, useEffect, ago } from "./lib.js";
import { api } from "./api.js";
import { logIn, signUp, usePlayer, forget } from "./session.js";
import { Refusal, Said, CopyButton, nextPlace } from "./notice.js";

// A new name and password are checked by the browser first (as the server checks them), so
// that the sentence is the browser's own rather than a schema's.
const NEW_NAME = { pattern: "[A-Za-z0-9_\\-]{3,20}", title: "3 to 20 letters, digits, _ or -", maxlength: 20 };
const NEW_PASSWORD = { minlength: 8, maxlength: 256 };

function Credentials({ title, action, submit, autocomplete, other, checks = false }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function send(event) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await action(name.trim(), password);
      location.assign(nextPlace());
    } catch (refused) {
      setError(refused.message);
      setBusy(false);
    }
  }
  return html`
    <section class="account-form" aria-labelledby="form-title">
      <h1 id="form-title">${title}</h1>
      <form onSubmit=${send}>
        <label>Name
          <input name="name" autocomplete="username" required value=${name} ...${checks ? NEW_NAME : {}}
            onInput=${(e) => setName(e.target.value)} />
        </label>
        <label>Password
          <input name="password" type="password" autocomplete=${autocomplete} required value=${password} ...${checks ? NEW_PASSWORD : {}}
            onInput=${(e) => setPassword(e.target.value)} />
        </label>
        <${Refusal} text=${error} />
        <button class="primary" type="submit" disabled=${busy}>${submit}</button>
      </form>
      ${other}
    </section>
  `;
}

export function LogIn() {
  const next = location.search;
  return html`<${Credentials} title="Log in" action=${logIn} submit="Log in" autocomplete="current-password"
    other=${html`<p>No account yet? <a href=${`/signup${next}`}>Sign up</a>.</p>`} />`;
}

export function SignUp() {
  const next = location.search;
  return html`<${Credentials} title="Sign up" action=${signUp} submit="Sign up" autocomplete="new-password" checks=${true}
    other=${html`<p class="hint">A name is 3 to 20 letters, digits, "_" or "-"; a password 8 characters or more.</p>
      <p>Have an account? <a href=${`/login${next}`}>Log in</a>.</p>`} />`;
}

export function Account() {
  const name = usePlayer();
  if (!name) {
    return html`<h1>Your account</h1><p><a href="/login?next=/account">Log in</a> to see your account.</p>`;
  }
  return html`
    <h1>Your account: ${name}</h1>
    <div class="account">
      <${Password} />
      <${Tokens} />
    </div>
  `;
}

function Password() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [keepTokens, setKeepTokens] = useState(false);
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  async function send(event) {
    event.preventDefault();
    setError(null);
    setDone(null);
    try {
      await api("/api/me/password", { method: "POST", body: { current, new: next, keep_tokens: keepTokens } });
      setCurrent("");
      setNext("");
      const tokens = keepTokens ? "your personal tokens still work." : "your personal tokens are revoked.";
      setDone(`Your password is changed; every other browser you were logged in with is logged out, and ${tokens}`);
      if (!keepTokens) window.dispatchEvent(new Event("tokens-changed"));
    } catch (refused) {
      if (refused.code === "not_logged_in") forget();
      setError(refused.message);
    }
  }
  return html`
    <section aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <form onSubmit=${send}>
        <label>Current password
          <input type="password" autocomplete="current-password" required value=${current}
            onInput=${(e) => setCurrent(e.target.value)} />
        </label>
        <label>New password
          <input type="password" autocomplete="new-password" required value=${next} ...${NEW_PASSWORD}
            onInput=${(e) => setNext(e.target.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked=${keepTokens} onChange=${(e) => setKeepTokens(e.target.checked)} />
          Keep my personal tokens (bots)
        </label>
        <${Refusal} text=${error} />
        <${Said} text=${done} />
        <button type="submit">Change the password</button>
      </form>
    </section>
  `;
}

function Tokens() {
  const [tokens, setTokens] = useState(null);
  const [label, setLabel] = useState("");
  const [made, setMade] = useState(null);
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  async function load() {
    try {
      setTokens(await api("/api/me/tokens"));
    } catch (refused) {
      setError(refused.message);
    }
  }
  useEffect(() => {
    load();
    const revoked = () => { setMade(null); load(); };  // a password change revoked them all
    window.addEventListener("tokens-changed", revoked);
    return () => window.removeEventListener("tokens-changed", revoked);
  }, []);
  async function make(event) {
    event.preventDefault();
    setError(null);
    setDone(null);
    try {
      setMade(await api("/api/me/tokens", { method: "POST", body: { label: label.trim() } }));
      setLabel("");
      await load();
    } catch (refused) {
      setError(refused.message);
    }
  }
  async function revoke(token) {
    setError(null);
    try {
      await api(`/api/me/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" });
      if (made && made.id === token.id) setMade(null);
      setDone(`The token "${token.label}" is revoked: a program that uses it is refused from now on.`);
      await load();
    } catch (refused) {
      setError(refused.message);
    }
  }
  const now = Date.now();
  return html`
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal tokens</h2>
      <p class="hint">A program (a bot) plays as you with a personal token, sent as <code>Authorization: Bearer TOKEN</code>.
        Revoke a token you no longer use.</p>
      <form class="row" onSubmit=${make}>
        <label>Label
          <input required maxlength="40" value=${label} placeholder="my bot" onInput=${(e) => setLabel(e.target.value)} />
        </label>
        <button type="submit">Make a token</button>
      </form>
      ${made && html`
        <div class="made-token" role="status">
          <p><strong>Your new token "${made.label}"</strong>. It will not be shown again: copy it now.</p>
          <div class="row">
            <input readonly value=${made.token} aria-label=${`The token "${made.label}"`} />
            <${CopyButton} value=${made.token} label="Copy the token" />
          </div>
        </div>`}
      <${Refusal} text=${error} />
      <${Said} text=${done} />
      ${tokens === null ? html`<p>Loading…</p>` : tokens.length === 0 ? html`<p>No personal token.</p>` : html`
        <table class="tokens">
          <caption class="visually-hidden">Your personal tokens</caption>
          <thead><tr><th scope="col">Label</th><th scope="col">Made</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Revoke</span></th></tr></thead>
          <tbody>
            ${tokens.map((t) => html`
              <tr key=${t.id}>
                <td>${t.label}</td>
                <td>${ago(t.created, now)}</td>
                <td>${t.last_used ? ago(t.last_used, now) : "never"}</td>
                <td><button type="button" onClick=${() => revoke(t)} aria-label=${`Revoke the token "${t.label}"`}>Revoke</button></td>
              </tr>`)}
          </tbody>
        </table>`}
    </section>
  `;
}
