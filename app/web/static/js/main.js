// The client's screens, chosen by the page's address, under a header that says who is here.
import { html, render } from "./lib.js";
import { Lobby } from "./lobby.js";
import { Table } from "./table.js";
import { Replay } from "./replay.js";
import { Rules } from "./rules.js";
import { LogIn, SignUp, Account } from "./account.js";
import { TablePage } from "./tablepage.js";
import { PlayerPage } from "./player.js";
import { Leaderboard, BoardLinks } from "./leaderboard.js";
import { playerHref } from "./rating.js";
import { tokenFromFragment } from "./api.js";
import { usePlayer, checkSession, logOut } from "./session.js";

/** A part of the address as written (a mistyped escape is kept as it is). */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function screen() {
  const parts = location.pathname.split("/").filter(Boolean);
  const [kind, id] = parts;
  if (kind === "play" && id) return html`<${Table} gameId=${id} token=${tokenFromFragment()} />`;
  if (kind === "watch" && id) return html`<${Table} gameId=${id} token=${null} />`;
  if (kind === "replay" && id) return html`<${Replay} gameId=${id} token=${tokenFromFragment()} />`;
  if (kind === "rules" && id) return html`<${Rules} game=${id} />`;
  if (kind === "tables" && id) return html`<${TablePage} tableId=${id} />`;
  if (kind === "players" && id) return html`<${PlayerPage} name=${decoded(id)} />`;
  if (kind === "leaderboards" && id) return html`<${Leaderboard} game=${decoded(id)} />`;
  if (kind === "login") return html`<${LogIn} />`;
  if (kind === "signup") return html`<${SignUp} />`;
  if (kind === "account") return html`<${Account} />`;
  return html`<${Lobby} />`;
}

function Who() {
  const name = usePlayer();
  const here = encodeURIComponent(location.pathname);
  if (!name) {
    return html`<p class="who"><a href=${`/login?next=${here}`}>Log in</a> / <a href=${`/signup?next=${here}`}>Sign up</a></p>`;
  }
  async function out() {
    await logOut();
    location.assign("/");
  }
  return html`<p class="who">Logged in as <a href=${playerHref(name)} aria-label=${`${name}: your page`}><strong>${name}</strong></a>
    <a href="/account">Account</a>
    <button type="button" class="link" onClick=${out}>Log out</button></p>`;
}

function App() {
  return html`
    <a class="skip" href="#main">Skip to the content</a>
    <header class="top">
      <a class="home" href="/">Board games</a>
      <${BoardLinks} />
      <${Who} />
    </header>
    <main id="main" tabindex="-1">${screen()}</main>
  `;
}

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
checkSession();
