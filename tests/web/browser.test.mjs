// The pages in a real browser (Debian's headless Chromium, driven by playwright-core) against
// the real services (run.sh): an operator watches a match update live and aborts it; people
// play a whole Muggins match against a bot and a whole Forty-Two hand with three bots, by
// clicking; every message a player's page receives is checked against what that seat may see.
// Screenshots of each page are kept in $BONEYARD_ARTIFACTS.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  ARTIFACTS, OPERATOR_TOKEN, WEB, cli, createQueue, matchId, openEvents, operator, player,
  readEvents, until,
} from './lib.mjs';
import { checkSeatPayloads, replayHoldings, tilesIn } from './leak_check.mjs';

let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.BONEYARD_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
});

async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// A page that records every JSON body and every server-sent event it receives, as the browser
// received them (Chrome's own network events), for the leak check.
async function recordingPage(options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const received = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.eventSourceMessageReceived', (e) => {
    received.push({ kind: 'event', name: e.eventName, data: e.data });
  });
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] || '';
    if (!type.startsWith('application/json')) return;
    try {
      received.push({ kind: 'response', url: response.url(), data: await response.text() });
    } catch {
      // A response the page navigated away from has no body to read.
    }
  });
  return { context, page, received };
}

async function signInOperator(page) {
  await page.goto(WEB + '/');
  await page.getByTestId('operator-token').fill(OPERATOR_TOKEN);
  await page.getByTestId('operator-sign-in').click();
  await page.waitForURL(/\/ops$/);
}

// Creates an event as the operator, adds one bot entrant of each kind, and starts it.
async function startEvent(op, id, tournament, kinds) {
  let r = await op.call('POST', '/api/tournaments', { tournament_id: id, tournament });
  assert.equal(r.status, 200, r.text);
  for (const kind of kinds) {
    r = await op.call('POST', `/api/tournaments/${id}/entrants`, { bot_kind: kind });
    assert.equal(r.status, 200, r.text);
  }
  r = await op.call('POST', `/api/tournaments/${id}/start`, {});
  assert.equal(r.status, 200, r.text);
}

test('an operator signs in, watches a match update live, aborts it; wrong token and missing '
  + 'CSRF token are refused; the audit log shows the abort', async () => {
  const { context, page } = await recordingPage();
  await page.goto(WEB + '/');
  await shot(page, '01-sign-in');
  await page.getByTestId('operator-token').fill('not-the-operator-token-at-all');
  await page.getByTestId('operator-sign-in').click();
  await page.getByTestId('error').waitFor();
  assert.match(await page.getByTestId('error').innerText(), /operator token/);
  assert.equal(page.url(), WEB + '/');

  await signInOperator(page);
  await page.getByTestId('services').waitFor();
  await until('the overview to show a serving execution service', async () =>
    (await page.getByTestId('services').innerText()).includes('execution'));

  // A match a player plays against a bot through the API, one move at a time.
  const queue = `live${process.pid}`;
  createQueue(queue, 'muggins', ['--format', 'duel', '--bot-fill', '0s', '--bot', 'greedy',
    '--casual']);
  const p = await player('live');
  const ticket = (await p.call('POST', '/api/tickets', { queue: `queues/${queue}` })).json;
  const tid = ticket.name.split('/')[1];
  const matched = await readEvents(p, `/api/tickets/${tid}/events`,
    (evs) => evs.some((e) => e.data.state === 'MATCHED'));
  const match = matched.events.find((e) => e.data.state === 'MATCHED').data.assignments[0].match;
  await shot(page, '02-overview');

  await page.goto(WEB + '/ops/matches');
  const row = page.locator(`[data-testid=match-row][data-match="${match}"]`);
  await row.waitFor();
  await shot(page, '03-matches');
  await row.locator('a').first().click();
  await page.waitForURL(new RegExp(`/ops/matches/${matchId(match)}$`));
  await page.getByTestId('board').waitFor();
  const sequence = async () => Number(await page.getByTestId('match-sequence').innerText());

  // The player moves; the page follows without being asked.
  for (let moves = 0; moves < 3; moves++) {
    const views = await readEvents(p, `/api/tickets/${tid}/play`, (evs) => evs.some(
      (e) => e.event === 'view' && e.data.current_seat === e.data.seat));
    const view = views.events.filter((e) => e.event === 'view').at(-1).data;
    const before = await sequence();
    const r = await p.call('POST', `/api/tickets/${tid}/actions`,
      { action: view.legal_actions[0].text, seen_sequence: Number(view.sequence) });
    assert.equal(r.status, 200, r.text);
    await until('the match page to show the move', async () => (await sequence()) > before);
  }
  await shot(page, '04-match-live');

  // A state-changing request without the CSRF token is refused, from the page itself.
  const refused = await page.evaluate(async (m) => {
    const r = await fetch(`/api/matches/${m}/abort`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'no csrf' }),
    });
    return { status: r.status, body: await r.json() };
  }, matchId(match));
  assert.equal(refused.status, 403);
  assert.match(refused.body.error.message, /X-CSRF-Token/);
  assert.equal(await page.getByTestId('match-state').innerText().then((t) => t.trim()), 'ACTIVE');

  const reason = `browser test ${process.pid}`;
  await page.getByTestId('abort-reason').fill(reason);
  await page.getByTestId('abort-button').click();
  await until('the match page to show the abort', async () =>
    (await page.getByTestId('match-state').innerText()).includes('ABORTED'));
  await shot(page, '05-match-aborted');

  await page.goto(WEB + '/ops/audit');
  const entry = page.locator('[data-testid=audit-entry]', { hasText: reason });
  await entry.waitFor();
  assert.match(await entry.innerText(), /abort_match/);
  assert.match(await entry.innerText(), new RegExp(match));
  await shot(page, '06-audit');
  await context.close();
});

// Plays the seat by clicking until the match is over. On its first chance it clicks a tile
// that cannot be played and expects the service's reason; after `reloadAfter` moves it reloads
// and expects the same position back.
async function playByClicking(page, label, { reloadAfter = 3, maxMoves = 2000 } = {}) {
  let moves = 0;
  let refusedShown = false;
  let reloaded = false;
  const result = page.getByTestId('result');
  while (moves < maxMoves) {
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')
      || document.querySelector('[data-testid=turn][data-your-turn=true]'), null,
      { timeout: 30000 });
    if (await result.count()) break;
    const seq = await page.getByTestId('sequence').innerText();
    if (!refusedShown) {
      const unplayable = page.locator('[data-testid=hand-tile][data-playable=false]');
      if (await unplayable.count()) {
        await unplayable.first().click();
        await page.getByTestId('error').waitFor();
        const message = await page.getByTestId('error').innerText();
        assert.ok(message.length > 5, message);
        assert.equal(await page.getByTestId('sequence').innerText(), seq, 'refused: no change');
        await shot(page, `${label}-refused`);
        refusedShown = true;
      }
    }
    if (!reloaded && moves >= reloadAfter) {
      const hand = await page.getByTestId('hand').innerText();
      await page.reload();
      await page.getByTestId('sequence').waitFor();
      await until('the reloaded page to show the same position', async () =>
        (await page.getByTestId('sequence').innerText()) === seq);
      assert.equal(await page.getByTestId('hand').innerText(), hand);
      reloaded = true;
      continue;
    }
    const other = page.locator('[data-testid=actions] [data-testid=action-button]');
    const playable = page.locator('[data-testid=hand-tile][data-playable=true]');
    if (await playable.count()) {
      await playable.first().click();
      const choices = page.locator('[data-testid=tile-action-buttons] [data-testid=action-button]');
      if (await choices.count()) await choices.first().click();
    } else if (await other.count()) {
      await other.first().click();
    } else {
      throw new Error('my turn, but nothing to click');
    }
    await page.waitForFunction((s) => {
      const e = document.querySelector('[data-testid=sequence]');
      return document.querySelector('[data-testid=result]') || (e && e.textContent !== s);
    }, seq, { timeout: 30000 });
    moves++;
  }
  await result.waitFor();
  return { moves, refusedShown, reloaded };
}

async function registerInPage(page, id) {
  await page.goto(WEB + '/');
  await page.getByTestId('register-id').fill(id);
  await page.getByTestId('register-button').click();
  await page.getByTestId('new-token').waitFor();
  await page.getByTestId('continue').click();
  await page.waitForURL(/\/lobby$/);
}

async function joinQueue(page, queue) {
  const card = page.locator(`[data-testid=queue][data-queue="queues/${queue}"]`);
  await card.waitFor();
  await card.getByTestId('join').click();
  await page.waitForURL(/\/play\/[^/]+$/, { timeout: 30000 });
  await page.getByTestId('sequence').waitFor();
  return page.url().split('/').at(-1);
}

// The finished match's record (public once it is over), read as an operator; the match is
// found through the page's own session.
async function recordOf(page, ticketId) {
  const match = await page.evaluate(async (t) =>
    (await (await fetch(`/api/tickets/${t}`)).json()).assignments[0].match, ticketId);
  const op = await operator();
  return until('the record', async () => {
    const r = await op.call('GET', `/api/matches/${matchId(match)}/record`);
    return r.status === 200 ? r.json : null;
  });
}

test('a person plays a whole Muggins match against a bot in the page; an illegal click is '
  + 'refused with its reason; a reload rejoins; no hidden tile reaches the page', async () => {
  const queue = `mug${process.pid}`;
  createQueue(queue, 'muggins', ['--name', 'Muggins to 50', '--format', 'duel', '--bot-fill', '0s',
    '--bot', 'greedy', '--rules', 'target=50', '--casual']);
  const { context, page, received } = await recordingPage({ viewport: { width: 390, height: 844 } });
  const id = `mugger${process.pid}`;
  await registerInPage(page, id);
  await shot(page, '07-lobby-phone');
  const tid = await joinQueue(page, queue);
  await shot(page, '08-muggins-play-phone');
  const played = await playByClicking(page, '08b-muggins');
  assert.ok(played.reloaded, 'the match lasted long enough to reload');
  assert.ok(played.refusedShown, 'an unplayable tile was clicked and refused');
  await shot(page, '09-muggins-over');

  const record = await recordOf(page, tid);
  assert.ok(record.result, 'the match finished');
  const seat = record.seats.indexOf(id);
  assert.ok(seat >= 0, JSON.stringify(record.seats));
  const checked = checkSeatPayloads(received, record, seat);
  assert.ok(checked.views > 10, `checked ${checked.views} views`);
  // The check can fail: the first view with one of the opponent's dealt tiles added is a leak.
  const first = received.find((item) => item.data.includes('"hand"')
    && JSON.parse(item.data).sequence === '0');
  const forged = JSON.parse(first.data);
  forged.layout.forged = record.rounds[0].deal.hands[1 - seat].tiles[0];
  assert.throws(() => checkSeatPayloads([{ data: JSON.stringify(forged) }], record, seat),
    /hidden tiles/);
  await context.close();
});

test('a person whose token is rotated while playing is taken to the sign-in page, told why',
  async () => {
    const queue = `rot${process.pid}`;
    createQueue(queue, 'muggins', ['--format', 'duel', '--bot-fill', '0s', '--bot', 'greedy',
      '--casual']);
    const { context, page } = await recordingPage({ viewport: { width: 1280, height: 900 } });
    const id = `rotated${process.pid}`;
    await registerInPage(page, id);
    const tid = await joinQueue(page, queue);
    // Rotated elsewhere (by the operator here): the page is not asked anything.
    cli(['player', 'rotate-token', id]);
    const notice = page.locator('p.notice');
    await notice.waitFor({ timeout: 15000 });
    assert.match(await notice.innerText(),
      /^You were signed out: this player's token was rotated or revoked; sign in with the new token\.$/);
    await page.getByTestId('player-form').waitFor();
    await shot(page, '08c-signed-out-after-rotation');
    // The seat plays no more from this browser.
    const r = await page.evaluate(async (t) => (await fetch(`/api/tickets/${t}`)).status, tid);
    assert.equal(r, 401);
    await context.close();
  });

test('a person plays a whole Forty-Two hand with three bots in the page; no hidden tile '
  + 'reaches the page', async () => {
  const queue = `ft${process.pid}`;
  createQueue(queue, 'forty_two', ['--name', 'Forty-Two, one mark', '--format', 'teams:2x2',
    '--bot-fill', '0s', '--rules', 'scoring=marks,marks_target=1', '--casual']);
  const { context, page, received } = await recordingPage({ viewport: { width: 1280, height: 900 } });
  const id = `fortytwo${process.pid}`;
  await registerInPage(page, id);
  const tid = await joinQueue(page, queue);
  await shot(page, '10-forty-two-play');
  const played = await playByClicking(page, '10b-forty-two', { reloadAfter: 1 });
  assert.ok(played.moves >= 7, `played ${played.moves} moves`);
  await shot(page, '11-forty-two-over');

  const record = await recordOf(page, tid);
  // One mark ends the match: it lasts one hand that is played out (and, before it, any deal
  // that every seat passed, which is shuffled again).
  assert.ok(record.result, 'the match finished');
  assert.ok(record.rounds.at(-1).actions.length >= 4 + 28 / 4,
    'the last hand was bid and played');
  const seat = record.seats.indexOf(id);
  const checked = checkSeatPayloads(received, record, seat);
  assert.ok(checked.views >= 7, `checked ${checked.views} views`);
  await context.close();
});

test('an operator creates a queue in the page and sees it; leaderboards, a player\'s page and '
  + 'a replay stepped through with every hand', async () => {
  const { context, page } = await recordingPage({ viewport: { width: 1280, height: 900 } });
  await signInOperator(page);

  // A rated match between two registered players and a bot: a leaderboard entry and a replay.
  const ann = await player('board');
  const bob = await player('board');
  const queue = `board${process.pid}`;
  createQueue(queue, 'muggins', ['--format', 'duel', '--rules', 'target=50']);
  const tickets = [];
  for (const p of [ann, bob]) {
    const t = (await p.call('POST', '/api/tickets', { queue: `queues/${queue}` })).json;
    tickets.push([p, t.name.split('/')[1]]);
  }
  const streams = [];
  for (const [p, tid] of tickets) {
    await readEvents(p, `/api/tickets/${tid}/events`,
      (evs) => evs.some((e) => e.data.state === 'MATCHED'));
    streams.push([p, tid, await openEvents(p, `/api/tickets/${tid}/play`)]);
  }
  // Both play their first legal action until the match ends.
  let over = false;
  let match = '';
  const acted = new Map();
  while (!over) {
    for (const [p, tid, play] of streams) {
      // The next view on this seat's stream (each event gives every seat one).
      const { data: view } = await play.until((e) => e.event === 'view'
        && Number(e.data.sequence) > (acted.get(tid) ?? -1));
      match = view.match;
      if (view.terminal) {
        over = true;
        break;
      }
      if (view.current_seat !== view.seat) continue;
      acted.set(tid, Number(view.sequence));
      await p.call('POST', `/api/tickets/${tid}/actions`,
        { action: view.legal_actions[0].text, seen_sequence: view.sequence });
    }
  }
  for (const [, , play] of streams) play.close();

  // Queues: create one through the form; it appears in the table.
  await page.goto(WEB + '/ops/queues');
  await page.getByTestId('queue-form').waitFor();
  const created = `pageq${process.pid}`;
  await page.getByTestId('queue-id').fill(created);
  await page.getByTestId('queue-name').fill('Made in the page');
  // Moon seats three: a head-to-head Moon queue is refused with the service's reason.
  await page.getByTestId('queue-game').selectOption('moon');
  await page.getByTestId('queue-create').click();
  await page.getByTestId('error').waitFor();
  assert.match(await page.getByTestId('error').innerText(), /moon.*seats 3/);
  await page.getByTestId('queue-game').selectOption('muggins');
  await page.getByTestId('queue-create').click();
  await page.locator(`[data-testid=queue-stats][data-queue="queues/${created}"]`).waitFor();
  await shot(page, '12-queues');

  // The leaderboard shows the rated players once ratings has the result.
  await page.goto(WEB + '/ratings');
  await until('the leaderboard to list the players', async () => {
    await page.reload();
    await page.getByTestId('game-picker').waitFor();
    return page.locator(`[data-testid=leaderboard-row][data-player="${ann.playerId}"]`).count();
  }, { timeoutMs: 30000, everyMs: 1000 });
  await shot(page, '13-ratings');

  await page.goto(WEB + `/players/${ann.playerId}`);
  await page.getByTestId('player-matches').waitFor();
  await shot(page, '14-player');

  await page.goto(WEB + `/replays/${matchId(match)}`);
  await page.getByTestId('replay-step').waitFor();
  assert.equal(await page.getByTestId('replay-step').innerText(), '0');
  assert.equal(await page.getByTestId('replay-hand').count(), 2);
  // Every seat's tiles the page shows, at every step, are those the record's deals and actions
  // leave in that seat's hand, rebuilt here without the services' code.
  const viewer = await operator();
  const record = (await viewer.call('GET', `/api/matches/${matchId(match)}/record`)).json;
  const replay = (await viewer.call('GET', `/api/replays/${matchId(match)}`)).json;
  const holdings = replayHoldings(record);
  const shownHands = () => page.getByTestId('replay-hand').evaluateAll((items) => items.map(
    (li) => [...li.querySelectorAll('svg.domino')].map(
      (svg) => svg.getAttribute('aria-label').replace(' (second set)', "'"))));
  for (let i = 0; i < replay.steps.length; i++) {
    if (i > 0) await page.getByTestId('replay-forward').click();
    await until(`step ${i}`, async () =>
      Number(await page.getByTestId('replay-step').innerText()) === i);
    const at = holdings.get(`${replay.steps[i].round}:${i}`);
    assert.ok(at, `the record has no round ${replay.steps[i].round} at step ${i}`);
    const shown = await shownHands();
    assert.equal(shown.length, at.hands.length);
    shown.forEach((tiles, seat) => assert.deepEqual(
      tiles.map((t) => [...tilesIn(t)][0]).sort(), [...at.hands[seat]].sort(),
      `seat ${seat}'s tiles on the page at step ${i}`));
  }
  assert.ok(replay.steps.length > 10);
  await shot(page, '15-replay');
  await context.close();
});

test('two people make a party by invite code in the lobby, the leader queues it, and both '
  + 'land in the same match, each at their own seat', async () => {
  const queue = `party${process.pid}`;
  createQueue(queue, 'forty_two', ['--name', 'Forty-Two for parties', '--format', 'teams:2x2',
    '--bot-fill', '0s', '--casual']);
  const leader = await recordingPage({ viewport: { width: 1280, height: 900 } });
  const member = await recordingPage({ viewport: { width: 390, height: 844 } });
  await registerInPage(leader.page, `lead${process.pid}`);
  await registerInPage(member.page, `memb${process.pid}`);

  await leader.page.getByTestId('party-create').click();
  await leader.page.getByTestId('party-code').waitFor();
  const code = (await leader.page.getByTestId('party-code').innerText()).trim();
  await member.page.getByTestId('party-join-code').fill(code);
  await member.page.getByTestId('party-join').click();
  // The leader's page hears of the new member without asking.
  await leader.page.locator(`[data-testid=party-member][data-player="memb${process.pid}"]`)
    .waitFor();
  await member.page.getByTestId('party-leader-note').waitFor();
  await shot(leader.page, '16-party-leader');
  await shot(member.page, '17-party-member-phone');

  const card = leader.page.locator(`[data-testid=queue][data-queue="queues/${queue}"]`);
  await card.getByTestId('join').click();
  for (const { page } of [leader, member]) {
    await page.waitForURL(/\/play\/[^/]+$/, { timeout: 30000 });
    await page.getByTestId('own-seat').waitFor();
  }
  const seats = await Promise.all([leader, member].map(({ page }) =>
    page.getByTestId('own-seat').innerText()));
  assert.notEqual(seats[0], seats[1], 'each at their own seat');
  assert.equal(leader.page.url(), member.page.url(), "the party's one ticket");
  await shot(member.page, '18-party-member-play');
  await leader.context.close();
  await member.context.close();
});

test('an operator creates a Swiss in the page, adds bots and starts it; the event page shows '
  + 'the rounds and the standings change live until it finishes; a knockout shows its bracket; '
  + 'a player enters and withdraws in the page', async () => {
  const { context, page, received } = await recordingPage({ viewport: { width: 1280, height: 900 } });
  await signInOperator(page);
  await page.goto(WEB + '/tournaments');
  await page.getByTestId('tournament-form').waitFor();
  const id = `night${process.pid}`;
  await page.getByTestId('tournament-id').fill(id);
  await page.getByTestId('tournament-name').fill('Muggins night');
  await page.getByTestId('tournament-game').selectOption('muggins');
  await page.getByTestId('tournament-rounds').fill('2');
  // The service's refusal is shown as it wrote it.
  await page.getByTestId('tournament-tiebreaks').fill('BH,coin-toss');
  await page.getByTestId('tournament-create').click();
  await page.getByTestId('tournament-form-error').waitFor();
  assert.match(await page.getByTestId('tournament-form-error').innerText(), /tournament\.tiebreaks/);
  await page.getByTestId('tournament-tiebreaks').fill('BH,SB');
  await page.getByTestId('tournament-create').click();
  await page.waitForURL(new RegExp(`/tournaments/${id}$`));
  await page.getByTestId('registration').waitFor();
  for (const kind of ['greedy', 'random', 'greedy', 'random']) {
    const before = await page.getByTestId('entrant').count();
    await page.getByTestId('bot-kind').fill(kind);
    await page.getByTestId('add-bot').click();
    await until('the bot to be listed', async () =>
      (await page.getByTestId('entrant').count()) === before + 1);
  }
  await shot(page, '19-tournament-registration');
  await page.getByTestId('start').click();
  await page.locator('[data-testid=tournament-state][data-state=RUNNING]').waitFor();
  await page.locator('[data-testid=round][data-round="1"]').waitFor();
  // Results arrive without a reload: the page reads the event again while it runs.
  await page.locator('[data-testid=tournament-state][data-state=FINISHED]')
    .waitFor({ timeout: 60000 });
  await page.locator('[data-testid=round][data-round="2"]').waitFor();
  assert.equal(await page.getByTestId('standing').count(), 4);
  const results = await page.getByTestId('pairing-result').allInnerTexts();
  assert.equal(results.length, 4);
  for (const text of results) assert.match(text, /1-0|0-1|½-½/);
  await shot(page, '20-tournament-finished');
  assert.equal(received.filter((r) => /"token":/.test(r.data)).length, 0, 'no seat token');

  // A knockout of bots: its bracket has the two semi-finals and the final.
  const op = await operator();
  const cup = `cup${process.pid}`;
  let r = await op.call('POST', '/api/tournaments', { tournament_id: cup,
    tournament: { display_name: 'Cup', game: 'muggins', format: 'KNOCKOUT' } });
  assert.equal(r.status, 200, r.text);
  for (let i = 0; i < 4; ++i) {
    r = await op.call('POST', `/api/tournaments/${cup}/entrants`, { bot_kind: 'greedy' });
    assert.equal(r.status, 200, r.text);
  }
  r = await op.call('POST', `/api/tournaments/${cup}/start`, {});
  assert.equal(r.status, 200, r.text);
  await page.goto(`${WEB}/tournaments/${cup}`);
  await page.locator('[data-testid=tournament-state][data-state=FINISHED]')
    .waitFor({ timeout: 60000 });
  for (const tie of ['W1-1', 'W1-2', 'W2-1']) {
    await page.locator(`[data-testid=bracket-tie][data-tie="${tie}"]`).waitFor();
  }
  await shot(page, '21-tournament-bracket');

  // A round robin at tables: three bots at one table of three, each round; the page shows the
  // table's seats with their places once played.
  const night = `tables${process.pid}`;
  await startEvent(op, night, { display_name: 'Night', game: 'muggins', format: 'ROUND_ROBIN',
    table_size: 3, rounds: 2 }, ['greedy', 'greedy', 'greedy']);
  await page.goto(`${WEB}/tournaments/${night}`);
  await page.locator('[data-testid=tournament-state][data-state=FINISHED]')
    .waitFor({ timeout: 60000 });
  const seats = page.locator('[data-testid=round][data-round="1"] [data-testid=table-seat]');
  assert.equal(await seats.count(), 3);
  const places = (await seats.evaluateAll((els) => els.map((e) => Number(e.dataset.place))))
    .sort();
  assert.deepEqual(places.slice(0, 1), [1], 'someone placed first');
  assert.ok(places.every((p) => p >= 1 && p <= 3), `places ${places}`);
  await shot(page, '22-tournament-tables');

  // A partner rotation: four Forty-Two bots, one round; the page shows the table as two teams
  // and the matrix of who partnered and opposed whom.
  const rotation = `rotation${process.pid}`;
  await startEvent(op, rotation, { display_name: 'Partners', game: 'forty_two',
    format: 'PARTNER_ROTATION', rounds: 1 }, ['random', 'random', 'random', 'random']);
  await page.goto(`${WEB}/tournaments/${rotation}`);
  await page.locator('[data-testid=tournament-state][data-state=FINISHED]')
    .waitFor({ timeout: 60000 });
  const teams = page.locator('[data-testid=round][data-round="1"] [data-testid=partner-team]');
  assert.equal(await teams.count(), 2);
  for (const text of await teams.allInnerTexts()) assert.match(text, / & /);
  const counts = await page.getByTestId('pair-count').allInnerTexts();
  assert.equal(counts.length, 12, 'every ordered pair of four');
  // One round: each player has one partner (1/0) and two opponents (0/1).
  assert.equal(counts.filter((c) => c === '1/0').length, 4);
  assert.equal(counts.filter((c) => c === '0/1').length, 8);
  await shot(page, '23-tournament-partner-rotation');

  // A duplicate round: six Muggins bots at three tables of two, all dealt the same; once over,
  // the page shows the seed and each hand's holders ranked by matchpoints.
  const duplicate = `duplicate${process.pid}`;
  await startEvent(op, duplicate, { display_name: 'Duplicate', game: 'muggins',
    format: 'ROUND_ROBIN', table_size: 2, rounds: 1, duplicate: true },
  ['greedy', 'random', 'greedy', 'random', 'greedy', 'random']);
  await page.goto(`${WEB}/tournaments/${duplicate}`);
  await page.locator('[data-testid=tournament-state][data-state=FINISHED]')
    .waitFor({ timeout: 60000 });
  assert.match(await page.getByTestId('round-seed').innerText(), /^\d+$/);
  const hands = page.getByTestId('hand-comparison');
  assert.equal(await hands.count(), 2, 'one comparison per seat');
  for (let i = 0; i < 2; ++i) {
    const points = (await hands.nth(i).getByTestId('hand-holder')
      .evaluateAll((els) => els.map((e) => Number(e.dataset.matchpoints))));
    assert.equal(points.length, 3, 'one holder per table');
    assert.ok(points.every((p, j) => p >= 0 && p <= 1 && (j === 0 || p <= points[j - 1])),
      `best first: ${points}`);
  }
  await shot(page, '24-tournament-duplicate');

  // An arena: four Muggins bots re-paired as they finish while its minute runs; the page's
  // leaderboard fills in live (points, each game's points) with the clock counting down.
  const arena = `arena${process.pid}`;
  await startEvent(op, arena, { display_name: 'Arena', game: 'muggins',
    rules: { target: { int_value: 50 } }, format: 'ARENA', duration: '60s' },
  ['greedy', 'random', 'greedy', 'random']);
  await page.goto(`${WEB}/tournaments/${arena}`);
  await page.getByTestId('leaderboard').waitFor();
  assert.match(await page.getByTestId('arena-clock').innerText(), /^\d+:\d\d left$/);
  // Results come in without a reload, and finishers play again: more results than the first
  // round's two games.
  await until('three results on the page', async () =>
    (await page.getByTestId('arena-result').count()) >= 3, { timeoutMs: 45000 });
  const sheets = await page.getByTestId('arena-sheet').allInnerTexts();
  assert.equal(sheets.length, 4);
  assert.ok(sheets.some((t) => /[0-4]/.test(t)), `sheets ${sheets}`);
  const points = await page.getByTestId('standing')
    .evaluateAll((els) => els.map((e) => Number(e.dataset.points)));
  assert.ok(points.every((p, j) => j === 0 || p <= points[j - 1]), `best first: ${points}`);
  assert.ok(points[0] >= 2, 'someone has won');
  await shot(page, '25-tournament-arena');

  // A league: four bots in two divisions of two, home and away, a round a minute. Round 1 is
  // played at once; round 2's fixtures are shown with its dates before it opens, and the
  // standings are one table per division.
  const league = `league${process.pid}`;
  await startEvent(op, league, { display_name: 'League', game: 'muggins',
    rules: { target: { int_value: 50 } }, format: 'LEAGUE', double_round_robin: true,
    league: { round_interval: '60s', division_size: 2, promotion: 1 } },
  ['greedy', 'random', 'greedy', 'random']);
  await page.goto(`${WEB}/tournaments/${league}`);
  await page.locator('[data-testid=round][data-round="1"][data-state=FINISHED]')
    .waitFor({ timeout: 30000 });
  const scheduled = page.locator('[data-testid=round][data-round="2"][data-state=SCHEDULED]');
  await scheduled.waitFor();
  assert.match(await scheduled.getByTestId('round-dates').innerText(), /opens .* closes /);
  assert.equal(await scheduled.getByTestId('pairing').count(), 2, 'its fixtures are known');
  const divisions = await page.getByTestId('division')
    .evaluateAll((els) => els.map((e) => Number(e.dataset.division)));
  assert.deepEqual(divisions, [1, 2]);
  const byDivision = await page.getByTestId('standing')
    .evaluateAll((els) => els.map((e) => Number(e.dataset.division)));
  assert.deepEqual(byDivision, [1, 1, 2, 2]);
  await shot(page, '26-tournament-league');
  await context.close();

  // A player enters an event in registration from its page, then withdraws.
  const open = `open${process.pid}`;
  r = await op.call('POST', '/api/tournaments', { tournament_id: open,
    tournament: { display_name: 'Open', game: 'muggins', format: 'SWISS', rounds: 3 } });
  assert.equal(r.status, 200, r.text);
  const ann = await player('tourpage');
  const mine = await recordingPage({ viewport: { width: 390, height: 844 } });
  await mine.page.goto(WEB + '/');
  await mine.context.addCookies([{ name: 'boneyard_session', value: ann.cookie.split('=')[1],
    url: WEB }]);
  await mine.page.goto(`${WEB}/tournaments/${open}`);
  await mine.page.getByTestId('enter').click();
  await mine.page.getByTestId('withdraw').waitFor();
  assert.equal(await mine.page.getByTestId('entrant').count(), 1);
  await mine.page.getByTestId('withdraw').click();
  await until('the entry to be gone', async () =>
    (await mine.page.getByTestId('entrant').count()) === 0);
  await mine.page.getByTestId('enter').waitFor();
  await mine.context.close();
});

test('a person finds a ladder\'s bots in the lobby, joins the ladder, challenges a house bot and '
  + 'plays it in the page; the standings label every bot; no hidden tile reaches the page; a '
  + 'Forty-Two ladder seats the fill bot as partners',
async () => {
  const op = await operator();
  const ladderId = `lad${process.pid}`;
  const made = await op.call('POST', '/api/ladders', {
    ladder_id: ladderId,
    ladder: {
      display_name: `Muggins ladder ${process.pid}`, game: 'muggins',
      rules: { target: { int_value: 50 } },
      house_bots: [{ bot_id: 'greedy', kind: 'greedy' },
        { bot_id: 'search-1', kind: 'search', level: 1 }],
      pool_wait: '1s',
    },
  });
  assert.equal(made.status, 200, made.text);
  const { context, page, received } = await recordingPage();
  const id = `ladderer${process.pid}`;
  await registerInPage(page, id);
  const offer = page.getByTestId('lobby-ladders');
  await offer.getByText(`Muggins ladder ${process.pid}`).waitFor();
  assert.match(await offer.innerText(), /search level 1/);
  await offer.getByText(`Muggins ladder ${process.pid}`).click();
  await page.waitForURL(new RegExp(`/ladders/${ladderId}$`));
  await page.getByTestId('ladder-join-button').click();
  await page.getByTestId('challenge-greedy').click();
  await page.waitForURL(/\/challenges\/[^/]+$/, { timeout: 30000 });
  await page.getByTestId('sequence').waitFor();
  await shot(page, '20-ladder-play');
  const challenge = page.url().split('/').at(-1);
  await playByClicking(page, '20b-ladder');
  const match = await page.evaluate(async (c) =>
    (await (await fetch(`/api/challenges/${c}`)).json()).match, challenge);
  const record = await until('the record', async () => {
    const r = await op.call('GET', `/api/matches/${matchId(match)}/record`);
    return r.status === 200 ? r.json : null;
  });
  const seat = record.seats.indexOf(id);
  assert.ok(seat >= 0, JSON.stringify(record.seats));
  const checked = checkSeatPayloads(received, record, seat);
  assert.ok(checked.views > 5, `checked ${checked.views} views`);

  await page.goto(`${WEB}/ladders/${ladderId}`);
  const standings = page.getByTestId('ladder-standings');
  await standings.waitFor();
  await until('both house bots and the person in the standings', async () =>
    (await standings.locator('tbody tr').count()) === 3);
  assert.equal(await standings.getByTestId('bot-label').count(), 2);
  assert.match(await standings.innerText(), new RegExp(id));
  await shot(page, '21-ladder-standings');

  // The pool: nobody else waits, so after the ladder's second a house bot takes the seat and
  // the page opens the match.
  await page.getByTestId('pool-enter').click();
  await page.getByTestId('pool-waiting').waitFor();
  await shot(page, '22-ladder-pool-waiting');
  await page.waitForURL(/\/challenges\/[^/]+$/, { timeout: 30000 });
  assert.notEqual(page.url().split('/').at(-1), challenge);
  await page.getByTestId('sequence').waitFor();

  // A partnership ladder: the page names the bot that partners each side; a challenge seats
  // the person and the house bot on opposite teams, the fill bot beside each.
  const partnersId = `ftw${process.pid}`;
  const partners = await op.call('POST', '/api/ladders', {
    ladder_id: partnersId,
    ladder: {
      display_name: `Forty-Two ladder ${process.pid}`, game: 'forty_two',
      rules: { scoring: { string_value: 'marks' }, marks_target: { int_value: 1 } },
      house_bots: [{ bot_id: 'heuristic', kind: 'heuristic' }, { bot_id: 'random', kind: 'random' }],
      fill_bot_id: 'random',
    },
  });
  assert.equal(partners.status, 200, partners.text);
  await page.goto(`${WEB}/ladders/${partnersId}`);
  assert.match(await page.getByTestId('ladder-fill').innerText(), /random, unrated/);
  await page.getByTestId('ladder-join-button').click();
  await page.getByTestId('challenge-heuristic').click();
  await page.waitForURL(/\/challenges\/[^/]+$/, { timeout: 30000 });
  await page.getByTestId('sequence').waitFor();
  await shot(page, '23-ladder-partners');
  const teamChallenge = await page.evaluate(async (c) =>
    (await fetch(`/api/challenges/${c}`)).json(), page.url().split('/').at(-1));
  const seats = teamChallenge.seats.map((s) => [s.seat || 0, s.player, s.seat_token]);
  assert.equal(seats.length, 4, JSON.stringify(seats));
  const mine = seats.find(([, player]) => player === `players/${id}`);
  const theirs = seats.find(([, player]) => player === `ladders/${partnersId}/bots/heuristic`);
  assert.ok(mine && theirs, JSON.stringify(seats));
  assert.notEqual(mine[0] % 2, theirs[0] % 2, 'the two sides are the two teams');
  for (const [seat, player, token] of seats) {
    assert.ok(!token, 'no seat token reaches the page');
    if (seat !== mine[0] && seat !== theirs[0]) {
      assert.equal(player, `ladders/${partnersId}/bots/random`);
    }
  }
  await context.close();
});
