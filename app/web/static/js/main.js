// The client's screens, chosen by the page's address.
import { html, render } from "./lib.js";
import { Lobby } from "./lobby.js";
import { Table } from "./table.js";
import { Replay } from "./replay.js";
import { Rules } from "./rules.js";
import { tokenFromFragment } from "./api.js";

function screen() {
  const parts = location.pathname.split("/").filter(Boolean);
  const [kind, id] = parts;
  if (kind === "play" && id) return html`<${Table} gameId=${id} token=${tokenFromFragment()} />`;
  if (kind === "watch" && id) return html`<${Table} gameId=${id} token=${null} />`;
  if (kind === "replay" && id) return html`<${Replay} gameId=${id} token=${tokenFromFragment()} />`;
  if (kind === "rules" && id) return html`<${Rules} game=${id} />`;
  return html`<${Lobby} />`;
}

function App() {
  return html`
    <a class="skip" href="#main">Skip to the content</a>
    <header class="top">
      <a class="home" href="/">Board games</a>
    </header>
    <main id="main" tabindex="-1">${screen()}</main>
  `;
}

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
