// The web service's relay under load: C browsers' event streams (server-sent events) watching
// K live matches through boneyard-web, against one direct gRPC watcher per match (`boneyard
// watch`, the reference). For every view a browser stream receives, the added latency is its
// arrival minus the gRPC watcher's arrival of the same (match, sequence), both measured here in
// one process clock. Prints one JSON object. Run through tests/bench/web_load.sh.
//
//   node web_load.mjs --connections 2000 --duration 30
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => {
  if (a.startsWith('--')) pairs.push([a.slice(2), all[i + 1]]);
  return pairs;
}, []));
const CONNECTIONS = Number(args.connections ?? 2000);
// Of the connections, this many are people playing (a seat's stream each, moves by POST).
const PLAYERS = Number(args.players ?? 0);
const THINK_MS = Number(args['think-ms'] ?? 250);
const DURATION_S = Number(args.duration ?? 30);
const WEB = process.env.BONEYARD_WEB_URL;

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;  // utime + stime, in clock ticks
}

const signIn = await fetch(`${WEB}/api/session`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ role: 'operator', token: process.env.BONEYARD_OPERATOR_TOKEN }),
});
const cookie = signIn.headers.get('set-cookie').split(';')[0];
const listed = await (await fetch(`${WEB}/api/matches?state=ACTIVE&page_size=1000`,
  { headers: { cookie } })).json();
const matches = listed.matches.map((m) => m.name);
if (matches.length === 0) throw new Error('no live matches to watch');

// Arrival times by "match sequence": the gRPC reference, and every browser stream's.
const grpcArrival = new Map();
const added = [];
let viewsReceived = 0;
let streamsOpen = 0;
let streamsFailed = 0;
let streamsEnded = 0;

const watchers = matches.map((name) => {
  const child = spawn(process.env.BONEYARD_CLI, ['watch', name, '--json'],
    { stdio: ['ignore', 'pipe', 'ignore'] });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const now = performance.now();
    try {
      const view = JSON.parse(line);
      grpcArrival.set(`${name} ${Number(view.sequence)}`, now);
    } catch {
      // not a view line
    }
  });
  return child;
});

const pending = [];  // browser arrivals whose gRPC arrival was not in yet

// One browser's event stream over node:http (far cheaper per chunk than fetch's web streams,
// so the client adds less of its own delay to what it measures).
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const requests = [];
function stream(i) {
  const name = matches[i % matches.length];
  const id = name.split('/')[1];
  const request = http.get(`${WEB}/api/matches/${id}/events`, { agent, headers: { cookie } },
    (response) => {
      if (response.statusCode !== 200) {
        streamsFailed++;
        response.resume();
        return;
      }
      streamsOpen++;
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk) => {
        const now = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('event: view')) continue;
          const sequence = Number(/"sequence":"?(\d+)/.exec(block)[1]);
          viewsReceived++;
          pending.push([`${name} ${sequence}`, now]);
        }
      });
      response.on('end', () => { streamsEnded++; streamsOpen--; });
      response.on('error', () => { streamsOpen--; });
    });
  request.on('error', () => { streamsFailed++; });
  requests.push(request);
}

// A person playing in a page: registered, signed in, queued in a Muggins queue that seats a
// bot at once, then one `play` stream per match, a move THINK_MS after each turn comes, and a
// new ticket when the match ends. Their views are timed by the service's histogram (no gRPC
// reference here: one `boneyard watch` per player's match would be hundreds of processes).
let playerViews = 0;
let playerMoves = 0;
let playerErrors = 0;
let playing = true;
async function call(session, method, path, body) {
  const headers = { cookie: session.cookie, 'content-type': 'application/json' };
  if (session.csrf) headers['x-csrf-token'] = session.csrf;
  const r = await fetch(`${WEB}${path}`, { method, headers, body: body && JSON.stringify(body) });
  return { status: r.status, json: await r.json().catch(() => null), setCookie: r.headers.get('set-cookie') };
}
async function playerLoop(i, queue) {
  const id = `loadp${process.pid}x${i}`;
  const made = await call({ cookie: '' }, 'POST', '/api/players', { player_id: id, display_name: id });
  const signed = await call({ cookie: '' }, 'POST', '/api/session',
    { role: 'player', player_id: id, token: made.json.token });
  const session = { cookie: signed.setCookie.split(';')[0], csrf: signed.json.csrf_token };
  while (playing) {
    const ticket = await call(session, 'POST', '/api/tickets', { queue });
    if (ticket.status !== 200) { playerErrors++; return; }
    const tid = ticket.json.name.split('/')[1];
    for (let t = 0; playing; t++) {
      const got = await call(session, 'GET', `/api/tickets/${tid}`);
      if (got.json?.state === 'MATCHED') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!playing) return;
    await new Promise((done) => {
      const request = http.get(`${WEB}/api/tickets/${tid}/play`, { agent, headers: { cookie: session.cookie } },
        (response) => {
          response.setEncoding('utf8');
          let buffer = '';
          let acted = -1;
          response.on('data', (chunk) => {
            buffer += chunk;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (!block.startsWith('event: view')) continue;
              playerViews++;
              const view = JSON.parse(block.slice(block.indexOf('data: ') + 6));
              if (view.terminal) { request.destroy(); done(); return; }
              const seq = Number(view.sequence);
              if (view.current_seat !== view.seat || seq <= acted) continue;
              acted = seq;
              setTimeout(async () => {
                const r = await call(session, 'POST', `/api/tickets/${tid}/actions`,
                  { action: view.legal_actions[0].text, seen_sequence: view.sequence });
                if (r.status === 200) playerMoves++; else playerErrors++;
              }, THINK_MS);
            }
          });
          response.on('end', done);
          response.on('error', done);
        });
      request.on('error', done);
      requests.push(request);
    });
  }
}

// The web service's own histogram of relay times (boneyard_web_relay_seconds), as cumulative
// buckets by upper bound.
async function relayBuckets() {
  const text = await (await fetch(`http://${process.env.BONEYARD_WEB_METRICS_LISTEN}/metrics`)).text();
  const buckets = new Map();
  for (const m of text.matchAll(/^boneyard_web_relay_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) {
    buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  }
  return buckets;
}

// The quantile's bucket bound (an upper bound on the quantile) from the difference of two scrapes.
function bucketQuantile(before, after, q) {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = after.get(Infinity) - (before.get(Infinity) ?? 0);
  for (const le of bounds) {
    if (after.get(le) - (before.get(le) ?? 0) >= q * total) return le * 1000;
  }
  return null;
}

const relayBefore = await relayBuckets();
const clientCpuBefore = process.cpuUsage();
const webPid = Number(readFileSync(`${process.env.BONEYARD_VAR_DIR}/run/web.pid`, 'utf8'));
const cpuBefore = cpuSeconds(webPid);
if (PLAYERS > 0) {
  const queue = `queues/webload${process.pid}`;
  spawnSync(process.env.BONEYARD_CLI, ['queue', 'create', `webload${process.pid}`, '--game',
    'muggins', '--format', 'duel', '--bot-fill', '0s', '--bot', 'greedy', '--casual'],
  { stdio: 'ignore', env: process.env });
  for (let i = 0; i < PLAYERS; i++) playerLoop(i, queue).catch(() => { playerErrors++; });
}
const started = performance.now();
for (let i = 0; i < CONNECTIONS - PLAYERS; i++) stream(i);
let peakOpen = 0;
const sampler = setInterval(() => { peakOpen = Math.max(peakOpen, streamsOpen); }, 100);
// The first second is the connections opening; views before it are the first (cached) ones.
await new Promise((r) => setTimeout(r, DURATION_S * 1000));
const elapsed = (performance.now() - started) / 1000;
const cpuAfter = cpuSeconds(webPid);
const clientCpu = process.cpuUsage(clientCpuBefore);
const relayAfter = await relayBuckets();
clearInterval(sampler);
const openAtEnd = streamsOpen;
playing = false;
const endedEarly = streamsEnded;
for (const r of requests) r.destroy();
await new Promise((r) => setTimeout(r, 500));
for (const w of watchers) w.kill();

// Only views the reference saw first count: a browser's first view of a match is the hub's
// cached latest, sent before any gRPC arrival that this run could pair it with.
let unpaired = 0;
for (const [key, t] of pending) {
  const reference = grpcArrival.get(key);
  if (reference === undefined) {
    unpaired++;
    continue;
  }
  added.push(t - reference);
}
added.sort((a, b) => a - b);
const round = (x) => (x === null ? null : Math.round(x * 100) / 100);
console.log(JSON.stringify({
  connections: CONNECTIONS,
  watching: CONNECTIONS - PLAYERS,
  playing: PLAYERS,
  player_views: playerViews,
  player_moves: playerMoves,
  player_errors: playerErrors,
  matches: matches.length,
  duration_s: round(elapsed),
  streams_open_peak: peakOpen,
  streams_open_at_end: openAtEnd,
  streams_failed: streamsFailed,
  streams_ended_early: endedEarly,
  views_received: viewsReceived,
  views_per_second: round(viewsReceived / elapsed),
  views_paired: added.length,
  views_unpaired: unpaired,
  added_latency_ms: {
    p50: round(percentile(added, 0.5)),
    p95: round(percentile(added, 0.95)),
    p99: round(percentile(added, 0.99)),
    max: round(added.at(-1) ?? null),
  },
  // Inside the web service, from the gRPC view's arrival to its write to each browser's socket:
  // the bucket bound each quantile falls under.
  server_relay_ms_at_most: {
    p50: bucketQuantile(relayBefore, relayAfter, 0.5),
    p95: bucketQuantile(relayBefore, relayAfter, 0.95),
    p99: bucketQuantile(relayBefore, relayAfter, 0.99),
    relayed: relayAfter.get(Infinity) - (relayBefore.get(Infinity) ?? 0),
  },
  web_cpu_seconds_per_second: round((cpuAfter - cpuBefore) / elapsed),
  client_cpu_seconds_per_second: round((clientCpu.user + clientCpu.system) / 1e6 / elapsed),
}, null, 2));
process.exit(0);
