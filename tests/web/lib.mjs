// Helpers for the web tests: the web API over fetch with a session of our own, the `boneyard`
// CLI for setting up (queues, bot matches), and polling helpers. Everything comes from
// tests/web/run.sh's environment.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';

export const WEB = process.env.BONEYARD_WEB_URL;
export const OPERATOR_TOKEN = process.env.BONEYARD_OPERATOR_TOKEN;
export const ARTIFACTS = process.env.BONEYARD_ARTIFACTS;
assert.ok(WEB && OPERATOR_TOKEN, 'run through tests/web/run.sh');

// The CLI's JSON output (or its text with json=false).
export function cli(args, { json = true } = {}) {
  const out = execFileSync(process.env.BONEYARD_CLI, json ? [...args, '--json'] : args, {
    env: process.env,
    encoding: 'utf8',
  });
  return json ? JSON.parse(out) : out;
}

// One browser-less client of the web API: keeps its session cookie and CSRF token.
export class Client {
  constructor() {
    this.cookie = '';
    this.csrf = '';
  }

  async call(method, path, body, { headers = {}, raw = false } = {}) {
    const init = { method, headers: { ...headers } };
    if (this.cookie) init.headers.cookie = this.cookie;
    if (this.csrf && method !== 'GET' && !('x-csrf-token' in headers)) {
      init.headers['x-csrf-token'] = this.csrf;
    }
    if (body !== undefined) {
      init.body = raw ? body : JSON.stringify(body);
      if (!('content-type' in headers)) init.headers['content-type'] = 'application/json';
    }
    const response = await fetch(WEB + path, init);
    const text = await response.text();
    const setCookie = response.headers.get('set-cookie');
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json, text, setCookie };
  }

  async signIn(body) {
    const r = await this.call('POST', '/api/session', body);
    if (r.status === 200) {
      this.cookie = r.setCookie.split(';')[0];
      this.csrf = r.json.csrf_token;
    }
    return r;
  }
}

export async function operator() {
  const c = new Client();
  const r = await c.signIn({ role: 'operator', token: OPERATOR_TOKEN });
  assert.equal(r.status, 200, r.text);
  return c;
}

let playerCount = 0;
// A new player registered through the web API and signed in.
export async function player(prefix = 'p') {
  const id = `${prefix}${process.pid}x${++playerCount}`;
  const c = new Client();
  const reg = await c.call('POST', '/api/players', { player_id: id, display_name: id });
  assert.equal(reg.status, 200, reg.text);
  c.token = reg.json.token;
  c.playerId = id;
  const r = await c.signIn({ role: 'player', player_id: id, token: c.token });
  assert.equal(r.status, 200, r.text);
  return c;
}

export function matchId(name) {
  return name.split('/')[1];
}

// A match of built-in bots (who play instantly) and, optionally, a player seat that holds it.
export function createMatch(game, seats, extra = []) {
  return cli(['create', '--game', game, '--seats', seats.join(','), ...extra]);
}

export function createQueue(id, game, flags) {
  return cli(['queue', 'create', id, '--game', game, ...flags]);
}

export async function until(what, check, { timeoutMs = 20000, everyMs = 100 } = {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// The events of a server-sent event stream's body, as {event, data} with data parsed as JSON;
// comments (keep-alives) and events without data are skipped.
async function* sseEvents(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

// Reads an SSE response until `stop(events)` is true or the stream ends; returns the events.
export async function readEvents(client, path, stop, { timeoutMs = 20000 } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const response = await fetch(WEB + path, {
    headers: { cookie: client.cookie },
    signal: controller.signal,
  });
  const events = [];
  if (response.status !== 200) {
    clearTimeout(timer);
    return { status: response.status, events, text: await response.text() };
  }
  try {
    for await (const e of sseEvents(response.body)) {
      events.push(e);
      if (stop(events)) break;
    }
  } catch (e) {
    if (e.name !== 'AbortError') throw e;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { status: 200, events };
}

// One event stream kept open, as a page keeps it: `until(check)` waits for the first event
// (from the start of the stream) that `check` accepts and returns it; `close()` ends it.
export async function openEvents(client, path) {
  const controller = new AbortController();
  const response = await fetch(WEB + path, {
    headers: { cookie: client.cookie },
    signal: controller.signal,
  });
  assert.equal(response.status, 200, await (response.status === 200 ? '' : response.text()));
  const events = [];
  const waiters = [];
  let ended = false;
  (async () => {
    try {
      for await (const e of sseEvents(response.body)) {
        events.push(e);
        waiters.splice(0).forEach((wake) => wake());
      }
    } catch {
      // closed
    }
    ended = true;
    waiters.splice(0).forEach((wake) => wake());
  })();
  let seen = 0;
  return {
    async until(check, timeoutMs = 30000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (seen < events.length) {
          const e = events[seen++];
          if (e.event === 'error') throw new Error(`stream error: ${JSON.stringify(e.data)}`);
          if (check(e)) return e;
        }
        if (ended) throw new Error(`stream ended: ${JSON.stringify(events.slice(-3))}`);
        if (Date.now() > deadline) throw new Error('timed out waiting for an event');
        await new Promise((wake) => {
          waiters.push(wake);
          setTimeout(wake, 200);
        });
      }
    },
    close() {
      controller.abort();
    },
  };
}
