// Load client for the Python service (same shape as bgio/load.js): G lanes, each plays precomputed 2-human Crazymino
// games one command at a time over HTTP/1.1 keep-alive (one connection per lane), alternating the seats' Bearer tokens.
// Only 200 answers count. --mode ceiling posts the same bodies to bench/service/http_commands.py's ceiling app (one Lua append).
// --mode socket plays the same games over each seat's WebSocket (/api/games/{id}/socket): a lane opens one socket per
// seat when it starts a game (its handshake and hello count), sends each command with a key and counts its 'applied'.
// --per-game K plays only each game's first K commands (socket mode; `opening.py`); `games_opened` counts the games
// whose sockets a lane began to open inside the measured window.
// Usage: node ours_load.js --port 8020 --games 50 --warmup 3 --duration 10 [--pool 700] [--mode service|ceiling|socket] [--per-game K]
const http = require('http');
const fs = require('fs');
// the `ws` package that boardgame.io's socket.io brings, from the folder this runs in (PEER_DIR/bgio)
const WebSocket = require('module').createRequire(process.cwd() + '/')('ws');
const args = Object.fromEntries(process.argv.slice(2).map((a, i, l) => a.startsWith('--') ? [a.slice(2), l[i + 1]?.startsWith('--') || l[i + 1] === undefined ? true : l[i + 1]] : null).filter(Boolean));
const PORT = Number(args.port || 8020), G = Number(args.games || 50), MODE = args.mode || 'service';
const WARMUP = Number(args.warmup || 3) * 1000, DURATION = Number(args.duration || 10) * 1000;
const POOL = Number(args.pool || 700), MAX_CMDS = Number(args['max-commands'] || 3e6);
const PER_GAME = Number(args['per-game'] || Infinity);
const scripts = JSON.parse(fs.readFileSync(args.scripts || (process.env.PEER_DIR || '.') + '/scripts.json'));
const pct = (s, p) => s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;

function request(agent, method, path, body, token) {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json' };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: '127.0.0.1', port: PORT, path, method, agent, headers }, (res) => {
      const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve([res.statusCode, Buffer.concat(chunks).toString()]));
    });
    req.on('error', (e) => resolve([0, String(e)]));
    req.end(body);
  });
}

// One seat's socket: says hello, then `ask` sends a command and resolves with its answer (applied or refused).
// A hello the server could not serve (503: at G = 1,000 every lane opens its sockets at once) is
// sent again on a new connection after a pause, as a client would; counted in `hello_retries`.
let helloRetries = 0;
async function seatAgain(path, token) {
  for (let attempt = 1; ; attempt++) {
    try { return await openSeat(path, token); } catch (e) {
      if (attempt >= 20 || !String(e.message).includes('store_unavailable')) throw e;
      helloRetries++;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

function openSeat(path, token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${PORT}${path}`, { perMessageDeflate: false });
    const waiting = new Map();
    ws.on('error', reject);
    ws.on('message', (data) => {
      const m = JSON.parse(data);
      if (m.type === 'welcome') resolve(seat);
      else if (m.type === 'refused' && m.key === null) reject(new Error(`hello refused: ${m.code}`));
      else if (m.type === 'applied' || m.type === 'refused') { const w = waiting.get(m.key); if (w) { waiting.delete(m.key); w(m); } }
    });
    ws.on('close', () => { for (const w of waiting.values()) w(null); waiting.clear(); });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token, after: 0 })));
    const seat = {
      ask: (text, key) => new Promise((done) => { waiting.set(key, done); ws.send(text); }),
      close: () => ws.close(),
    };
  });
}

(async () => {
  const setupAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const t0 = Date.now();
  const pool = [];
  if (MODE === 'service' || MODE === 'socket') {
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < POOL) {
        const s = scripts[next++ % scripts.length];
        const [st, ans] = await request(setupAgent, 'POST', '/api/games', JSON.stringify({ game: 'crazymino', seats: [{ type: 'human' }, { type: 'human' }], seed: s.seed }));
        if (st !== 201) throw new Error(`create: ${st} ${ans.slice(0, 200)}`);
        const c = JSON.parse(ans); const tokens = []; for (const seat of c.seats) tokens[seat.seat] = seat.token;
        pool.push({ path: `/api/games/${c.id}/commands`, tokens, moves: s.moves });
      }
    }));
    // the service's view agrees with the precomputed script (first command is legal for the seat to act)
    const g = pool[0]; const [seat, body] = g.moves[0];
    const [st, ans] = await request(setupAgent, 'GET', g.path.replace(/\/commands$/, ''), undefined, g.tokens[seat]);
    const view = JSON.parse(ans);
    const legal = view.legal.map((c) => JSON.stringify(c));
    if (st !== 200 || view.to_act[0] !== seat || !legal.some((l) => JSON.stringify(JSON.parse(l)) === JSON.stringify(JSON.parse(body)))) throw new Error('script does not match the service');
  } else {
    const bodies = scripts.flatMap((s) => s.moves.map((m) => m[1]));
    for (let i = 0; i < G; i++) {
      const [st] = await request(setupAgent, 'POST', `/create/lane-${process.pid}-${i}`, '');
      if (st !== 201) throw new Error(`ceiling create ${st}`);
      pool.push({ path: `/append/lane-${process.pid}-${i}`, tokens: ['x'.repeat(32), 'x'.repeat(32)], moves: bodies.slice((i * 97) % 1000).concat(bodies).map((b) => [0, b]) });
    }
  }
  setupAgent.destroy();
  console.error(`set up ${pool.length} ${MODE === 'ceiling' ? 'streams' : 'games'} in ${Date.now() - t0} ms`);

  let total = 0, counted = 0, errors = 0, exhausted = false, opened = 0; const lat = [], codes = {};
  const start = Date.now(), opens = start + WARMUP, closes = opens + DURATION;
  if (MODE === 'socket') {
    await Promise.all(Array.from({ length: G }, async () => {
      while (Date.now() < closes && total < MAX_CMDS) {
        const game = pool.shift();
        if (!game) { exhausted = true; break; }
        const begun = Date.now(); if (begun >= opens && begun < closes) opened++;
        const seats = await Promise.all(game.tokens.map((token) => seatAgain(game.path.replace(/\/commands$/, '/socket'), token)));
        let n = 0;
        for (const [seat, body] of game.moves.slice(0, PER_GAME)) {
          if (Date.now() >= closes || total >= MAX_CMDS) break;
          const key = `k${n++}`;
          const sent = process.hrtime.bigint(); const sentMs = Date.now();
          const answer = await seats[seat].ask(`{"type":"command","key":"${key}","command":${body}}`, key);
          const ms = Number(process.hrtime.bigint() - sent) / 1e6;
          total++;
          if (!answer || answer.type !== 'applied') { errors++; const c = answer ? answer.code : 'timeout'; codes[c] = (codes[c] || 0) + 1; if (errors < 4) console.error('refused', JSON.stringify(answer).slice(0, 200)); break; }
          if (sentMs >= opens && Date.now() <= closes) { counted++; lat.push(ms); }
        }
        for (const s of seats) s.close();
      }
    }));
  } else await Promise.all(Array.from({ length: G }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });  // one keep-alive connection per lane
    while (Date.now() < closes && total < MAX_CMDS) {
      const game = pool.shift();
      if (!game) { exhausted = true; break; }
      for (const [seat, body] of game.moves) {
        if (Date.now() >= closes || total >= MAX_CMDS) break;
        const sent = process.hrtime.bigint(); const sentMs = Date.now();
        const [st, ans] = await request(agent, 'POST', game.path, body, game.tokens[seat]);
        const ms = Number(process.hrtime.bigint() - sent) / 1e6;
        total++;
        if (st !== 200) { errors++; codes[st] = (codes[st] || 0) + 1; if (errors < 4) console.error('refused', st, ans.slice(0, 200)); break; }
        if (sentMs >= opens && Date.now() <= closes) { counted++; lat.push(ms); }
      }
    }
    agent.destroy();
  }));
  lat.sort((a, b) => a - b);
  console.log(JSON.stringify({ system: MODE === 'ceiling' ? 'ceiling' : MODE === 'socket' ? 'ours-socket' : 'ours', games: G, window_s: DURATION / 1000, moves: counted, moves_per_s: counted / (DURATION / 1000), p50_ms: pct(lat, 0.5), p99_ms: pct(lat, 0.99), errors, codes, exhausted, total_moves: total, hello_retries: helloRetries, games_opened: opened }));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
