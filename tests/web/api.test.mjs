// The web API's hostile-input suite, without a browser: every malformed or unauthorised
// request gets its specific status and a message naming the field, and changes nothing (the
// match, the ticket, the session stay as they were). Against the real services (run.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client, WEB, OPERATOR_TOKEN, cli, createMatch, createQueue, matchId, operator, player,
  openEvents, readEvents, until,
} from './lib.mjs';
import { replayHoldings, tilesIn } from './leak_check.mjs';

function assertError(r, status, code, fieldOrText) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.json?.error?.code, code, r.text);
  if (fieldOrText) assert.match(r.json.error.message, new RegExp(fieldOrText), r.text);
}

test('sign-in refuses wrong tokens and malformed requests, and sets no cookie', async () => {
  const c = new Client();
  let r = await c.call('POST', '/api/session', { role: 'operator', token: 'x'.repeat(40) });
  assertError(r, 401, 'UNAUTHENTICATED', 'token');
  assert.equal(r.setCookie, null);
  r = await c.call('POST', '/api/session', { role: 'player', token: 'not-a-token-of-anyone' });
  assertError(r, 401, 'UNAUTHENTICATED', 'token');
  r = await c.call('POST', '/api/session', { token: OPERATOR_TOKEN });
  assertError(r, 400, 'INVALID_ARGUMENT', 'role');
  r = await c.call('POST', '/api/session', { role: 'admin', token: OPERATOR_TOKEN });
  assertError(r, 400, 'INVALID_ARGUMENT', 'role');
  r = await c.call('POST', '/api/session', { role: 'operator', token: 7 });
  assertError(r, 400, 'INVALID_ARGUMENT', 'token');
  r = await c.call('POST', '/api/session', { role: 'operator', token: 'x'.repeat(300) });
  assertError(r, 400, 'INVALID_ARGUMENT', 'token');
  // A cross-site form can only send form types: refused before anything is read.
  r = await c.call('POST', '/api/session', `role=operator&token=${OPERATOR_TOKEN}`,
    { raw: true, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assertError(r, 400, 'INVALID_ARGUMENT', 'Content-Type');
  assert.equal(r.setCookie, null);
  r = await c.call('POST', '/api/session', '{"role": "operator",', { raw: true });
  assertError(r, 400, 'INVALID_ARGUMENT', 'body');
  r = await c.call('POST', '/api/session', 'x'.repeat(70 * 1024), { raw: true });
  assert.equal(r.status, 413);
  // The good one works, and the session says who it is.
  r = await c.signIn({ role: 'operator', token: OPERATOR_TOKEN });
  assert.equal(r.status, 200);
  assert.match(r.setCookie, /HttpOnly/);
  assert.match(r.setCookie, /SameSite=Strict/);
  r = await c.call('GET', '/api/session');
  assert.equal(r.json.role, 'operator');
  assert.equal(r.json.csrf_token, c.csrf);
});

test('each role reaches only its own API', async () => {
  const anon = new Client();
  assertError(await anon.call('GET', '/api/matches'), 401, 'UNAUTHENTICATED');
  assertError(await anon.call('GET', '/api/overview'), 401, 'UNAUTHENTICATED');
  assertError(await anon.call('POST', '/api/tickets', { queue: 'queues/x' }), 401,
    'UNAUTHENTICATED');
  const forged = new Client();
  forged.cookie = 'boneyard_session=' + 'a'.repeat(43);
  assertError(await forged.call('GET', '/api/matches'), 401, 'UNAUTHENTICATED');
  const p = await player();
  assertError(await p.call('GET', '/api/matches'), 403, 'PERMISSION_DENIED', 'operators');
  assertError(await p.call('GET', '/api/audit'), 403, 'PERMISSION_DENIED');
  const op = await operator();
  assertError(await op.call('POST', '/api/tickets', { queue: 'queues/x' }), 403,
    'PERMISSION_DENIED', 'players');
  assertError(await op.call('GET', '/api/nothing/here'), 404, 'NOT_FOUND');
});

test('abort needs the CSRF token and a reason; refused aborts change nothing; the audit log '
  + 'shows what was done', async () => {
  const created = createMatch('muggins', ['player:holder', 'bot:random']);
  const name = created.match.name;
  const id = matchId(name);
  const op = await operator();
  const state = async () => (await op.call('GET', `/api/matches/${id}`)).json.state;
  assert.equal(await state(), 'ACTIVE');

  let r = await op.call('POST', `/api/matches/${id}/abort`, { reason: 'test' },
    { headers: { 'x-csrf-token': '' } });
  assertError(r, 403, 'PERMISSION_DENIED', 'X-CSRF-Token');
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason: 'test' },
    { headers: { 'x-csrf-token': 'forged' + op.csrf.slice(6) } });
  assertError(r, 403, 'PERMISSION_DENIED', 'X-CSRF-Token');
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason: '' });
  assertError(r, 400, 'INVALID_ARGUMENT', 'reason');
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason: 'x'.repeat(2000) });
  assertError(r, 400, 'INVALID_ARGUMENT', 'reason');
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason: 'ok' },
    { headers: { 'content-type': 'text/plain' } });
  assertError(r, 400, 'INVALID_ARGUMENT', 'Content-Type');
  r = await op.call('POST', '/api/matches/not..an..id/abort', { reason: 'x' });
  assertError(r, 400, 'INVALID_ARGUMENT', 'match id');
  r = await op.call('POST', `/api/matches/${'0'.repeat(32)}/abort`, { reason: 'x' });
  assertError(r, 404, 'NOT_FOUND');
  // Another session's CSRF token is not this one's.
  const other = await operator();
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason: 'x' },
    { headers: { 'x-csrf-token': other.csrf } });
  assertError(r, 403, 'PERMISSION_DENIED', 'X-CSRF-Token');
  assert.equal(await state(), 'ACTIVE');

  const reason = `api test ${process.pid}`;
  r = await op.call('POST', `/api/matches/${id}/abort`, { reason });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.state, 'ABORTED');
  assert.equal(r.json.abort_reason, reason);
  // Aborting a finished match is the service's FAILED_PRECONDITION, message kept.
  const done = createMatch('castle_rock', ['bot:random']);
  await until('the bot match to finish', async () =>
    (await op.call('GET', `/api/matches/${matchId(done.match.name)}`)).json.state === 'FINISHED');
  r = await op.call('POST', `/api/matches/${matchId(done.match.name)}/abort`, { reason: 'late' });
  assertError(r, 400, 'FAILED_PRECONDITION', 'finished');

  const audit = (await op.call('GET', '/api/audit?page_size=50')).json.entries;
  const mine = audit.find((e) => e.action === 'abort_match' && e.target === name && e.outcome === 'OK');
  assert.ok(mine, JSON.stringify(audit.slice(0, 5)));
  assert.equal(mine.detail, reason);
  assert.equal(mine.actor, 'operator:' + op.cookie.split('=')[1].slice(0, 8));
  assert.ok(audit.some((e) => e.action === 'abort_match' && e.outcome.startsWith('NOT_FOUND')));
  assert.ok(audit.some((e) => e.action === 'abort_match' && e.outcome.startsWith('FAILED_PRECONDITION')));
  assert.ok(!audit.some((e) => e.detail === 'test'), 'refused before the service: never audited as done');
  assertError(await op.call('GET', '/api/audit?page_size=0'), 400, 'INVALID_ARGUMENT', 'page_size');
  assertError(await op.call('GET', '/api/audit?before=x'), 400, 'INVALID_ARGUMENT', 'before');
  assertError(await op.call('GET', '/api/matches?state=BOGUS'), 400, 'INVALID_ARGUMENT', 'state');
});

test('the overview counts live matches by game from execution\'s own gauge', async () => {
  const op = await operator();
  const live = async () => (await op.call('GET', '/api/overview')).json.live_matches.moon ?? 0;
  const before = await live();
  const held = createMatch('moon', ['player:holder', 'bot:random', 'bot:random']);
  await until('the overview to count the new Moon match', async () => (await live()) > before);
  await op.call('POST', `/api/matches/${matchId(held.match.name)}/abort`, { reason: 'counted' });
  await until('the overview to drop it', async () => (await live()) === before);
});

test('sign-out needs the CSRF token and ends the session on the server', async () => {
  const op = await operator();
  assertError(await op.call('DELETE', '/api/session', undefined, { headers: { 'x-csrf-token': '' } }),
    403, 'PERMISSION_DENIED');
  assert.equal((await op.call('GET', '/api/session')).status, 200);
  const r = await op.call('DELETE', '/api/session');
  assert.equal(r.status, 204);
  assert.match(r.setCookie, /Max-Age=0/);
  assertError(await op.call('GET', '/api/session'), 401, 'UNAUTHENTICATED');
  assertError(await op.call('GET', '/api/matches'), 401, 'UNAUTHENTICATED');
});

test('a player plays through the API: bad actions are refused with the service\'s reason and '
  + 'change nothing; the seat view holds only that seat\'s hand', async () => {
  const queue = `apiduel${process.pid}`;
  createQueue(queue, 'muggins', ['--format', 'duel', '--bot-fill', '0s', '--bot', 'greedy',
    '--casual']);
  const p = await player('api');
  let r = await p.call('POST', '/api/tickets', { queue: `queues/${queue}` });
  assert.equal(r.status, 200, r.text);
  const ticket = r.json;
  assert.doesNotMatch(r.text, /seat_token":"[^"]/);
  const tid = ticket.name.split('/')[1];
  const watched = await readEvents(p, `/api/tickets/${tid}/events`,
    (evs) => evs.some((e) => e.event === 'ticket' && e.data.state === 'MATCHED'));
  const matched = watched.events.find((e) => e.event === 'ticket' && e.data.state === 'MATCHED');
  assert.ok(matched, JSON.stringify(watched));
  for (const a of matched.data.assignments) assert.equal(a.seat_token, '');

  // Someone else's ticket is not theirs to read or play.
  const q = await player('nosy');
  assertError(await q.call('GET', `/api/tickets/${tid}`), 403, 'PERMISSION_DENIED');
  assert.equal((await q.call('GET', `/api/tickets/${tid}/play`)).status, 403);
  assertError(await q.call('POST', `/api/tickets/${tid}/actions`, { action: 'draw', seen_sequence: 0 }),
    403, 'PERMISSION_DENIED');

  // Wait until it is our turn (the bot may open).
  const first = await readEvents(p, `/api/tickets/${tid}/play`, (evs) => evs.some(
    (e) => e.event === 'view' && e.data.current_seat === e.data.seat));
  const view = first.events.filter((e) => e.event === 'view').at(-1).data;
  assert.equal(view.hand.length, view.hand_counts[view.seat]);
  assert.ok(view.legal_actions.length > 0);
  const seq = Number(view.sequence);
  const act = (action, seen = seq) =>
    p.call('POST', `/api/tickets/${tid}/actions`, { action, seen_sequence: seen });

  assertError(await act('fly away'), 400, 'INVALID_ARGUMENT');
  const illegal = ['pass', 'draw'].find((a) => !view.legal_actions.some((l) => l.text === a));
  assertError(await act(illegal), 400, 'FAILED_PRECONDITION');
  assertError(await act(view.legal_actions[0].text, seq + 5), 409, 'ABORTED');
  assertError(await p.call('POST', `/api/tickets/${tid}/actions`, { action: 'draw' }), 400,
    'INVALID_ARGUMENT', 'seen_sequence');
  assertError(await p.call('POST', `/api/tickets/${tid}/actions`,
    { action: 'x'.repeat(100), seen_sequence: seq }), 400, 'INVALID_ARGUMENT', 'action');
  assertError(await p.call('POST', `/api/tickets/${tid}/actions`,
    { action: 'draw', seen_sequence: seq }, { headers: { 'x-csrf-token': '' } }),
    403, 'PERMISSION_DENIED', 'X-CSRF-Token');
  assertError(await p.call('POST', '/api/tickets/bad$id/actions', { action: 'draw', seen_sequence: 0 }),
    400, 'INVALID_ARGUMENT', 'ticket id');
  const op = await operator();
  const match = (await op.call('GET', `/api/matches/${matchId(matched.data.assignments[0].match)}`)).json;
  assert.equal(Number(match.sequence), seq, 'refused actions changed nothing');

  r = await act(view.legal_actions[0].text);
  assert.equal(r.status, 200, r.text);
  assert.ok(Number(r.json.sequence) > seq);
  await op.call('POST', `/api/matches/${matchId(match.name)}/abort`, { reason: 'api test done' });
});

test('a rotated token signs out every session made with it and ends the streams they opened',
  async () => {
    const queue = `apirotate${process.pid}`;
    createQueue(queue, 'muggins', ['--format', 'duel', '--bot-fill', '0s', '--bot', 'greedy',
      '--casual']);
    const p = await player('rot');
    // A second browser signed in with the same token (another web replica would be the same:
    // each asks matchmaking, and the session's row is shared).
    const other = new Client();
    assert.equal((await other.signIn({ role: 'player', token: p.token })).status, 200);
    const ticket = (await p.call('POST', '/api/tickets', { queue: `queues/${queue}` })).json;
    const tid = ticket.name.split('/')[1];
    const ticketEvents = await openEvents(p, `/api/tickets/${tid}/events`);
    const matched = await ticketEvents.until((e) => e.event === 'ticket' && e.data.state === 'MATCHED');
    ticketEvents.close();  // a matched ticket's stream ends by itself
    // Two streams that stay open: the seat's play stream and the player's party's.
    const party = await p.call('POST', '/api/parties');
    assert.equal(party.status, 200, party.text);
    const partyEvents = await openEvents(p, `/api/${party.json.name}/events`);
    await partyEvents.until((e) => e.event === 'party');
    const play = await openEvents(p, `/api/tickets/${tid}/play`);
    const { data: view } = await play.until((e) => e.event === 'view'
      && e.data.current_seat === e.data.seat);

    const rotatedAt = Date.now();
    const rotated = cli(['player', 'rotate-token', p.playerId]);
    assert.ok(rotated.token && rotated.token !== p.token);
    // Both streams end with an error naming the cause, without anyone calling in.
    await assert.rejects(play.until(() => false, 15000), (e) => {
      assert.match(e.message, /stream error: .*UNAUTHENTICATED.*rotated or revoked/, 'play');
      return true;
    });
    // The party's feed asks matchmaking with the token itself: refused there or here, it ends.
    await assert.rejects(partyEvents.until(() => false, 15000), (e) => {
      assert.match(e.message, /stream error: .*UNAUTHENTICATED/, 'party');
      return true;
    });
    console.log(`# streams ended ${Date.now() - rotatedAt} ms after the rotation`);
    // Every session signed in with the old token is over, and its seat plays no more.
    assertError(await p.call('POST', `/api/tickets/${tid}/actions`,
      { action: view.legal_actions[0].text, seen_sequence: view.sequence }), 401, 'UNAUTHENTICATED',
    'rotated or revoked');
    assertError(await p.call('GET', '/api/session'), 401, 'UNAUTHENTICATED');
    assertError(await other.call('GET', `/api/tickets/${tid}`), 401, 'UNAUTHENTICATED');
    assert.equal((await readEvents(other, `/api/tickets/${tid}/play`, () => true)).status, 401);
    const op = await operator();
    const name = matched.data.assignments[0].match;
    const match = (await op.call('GET', `/api/matches/${matchId(name)}`)).json;
    assert.equal(Number(match.sequence), Number(view.sequence), 'no move was made with the old token');
    // The new token signs in and plays the same seat.
    const again = new Client();
    assert.equal((await again.signIn({ role: 'player', token: rotated.token })).status, 200);
    const r = await again.call('POST', `/api/tickets/${tid}/actions`,
      { action: view.legal_actions[0].text, seen_sequence: view.sequence });
    assert.equal(r.status, 200, r.text);
    await op.call('POST', `/api/matches/${matchId(name)}/abort`, { reason: 'rotation test done' });
  });

test('a path or query value that is not valid UTF-8 is a 400 naming it, never a 500', async () => {
  const p = await player('utf');
  assertError(await p.call('GET', '/api/leaderboard/%FF'), 400, 'INVALID_ARGUMENT', 'path');
  assertError(await p.call('GET', '/api/leaderboard/muggins?page_token=%FF'), 400,
    'INVALID_ARGUMENT', 'query parameter "page_token"');
  assertError(await p.call('GET', '/api/queues?game=%C3'), 400, 'INVALID_ARGUMENT',
    'query parameter "game"');
  assertError(await p.call('GET', '/api/players/a%00b'), 400, 'INVALID_ARGUMENT', 'path');
  assertError(await p.call('GET', '/api/queues?%FF=1'), 400, 'INVALID_ARGUMENT', 'name');
  assertError(await new Client().call('GET', '/%E2%28%A1'), 400, 'INVALID_ARGUMENT', 'path');
  // Valid UTF-8 passes on to the route, which judges it as before (player ids are a-z0-9_-).
  assertError(await p.call('GET', '/api/players/%C3%A9t%C3%A9'), 400, 'INVALID_ARGUMENT',
    'player id');
  assert.equal((await p.call('GET', '/api/players/nobody-here')).status, 404);
});

test('registration refuses malformed ids and taken names', async () => {
  const c = new Client();
  assertError(await c.call('POST', '/api/players', { player_id: 'has space', display_name: 'X' }),
    400, 'INVALID_ARGUMENT', 'player_id');
  assertError(await c.call('POST', '/api/players', { player_id: 'okid' + process.pid }),
    400, 'INVALID_ARGUMENT', 'display_name');
  const p = await player('dup');
  assertError(await c.call('POST', '/api/players', { player_id: p.playerId, display_name: 'Other' }),
    409, 'ALREADY_EXISTS', 'player_id');
});

test('queues are created and changed by operators only, bad settings are refused naming the '
  + 'field, and both are audited', async () => {
  const op = await operator();
  const p = await player('q');
  const id = `webq${process.pid}`;
  const queue = { display_name: 'Web queue', game: 'muggins', format: { head_to_head: {} } };
  assertError(await p.call('POST', '/api/queues', { queue_id: id, queue }), 403,
    'PERMISSION_DENIED', 'operators');
  assertError(await op.call('POST', '/api/queues', { queue_id: id, queue: { ...queue, colour: 'red' } }),
    400, 'INVALID_ARGUMENT', 'queue');
  assertError(await op.call('POST', '/api/queues', { queue }), 400, 'INVALID_ARGUMENT', 'queue_id');
  assertError(await op.call('POST', '/api/queues', { queue_id: id, queue: { ...queue, game: 'chess' } }),
    400, 'INVALID_ARGUMENT');
  assertError(await op.call('POST', '/api/queues', { queue_id: id, queue },
    { headers: { 'x-csrf-token': '' } }), 403, 'PERMISSION_DENIED', 'X-CSRF-Token');
  const listed = async () => (await op.call('GET', '/api/queues')).json.queues
    .find((q) => q.name === `queues/${id}`);
  assert.equal(await listed(), undefined);

  let r = await op.call('POST', '/api/queues', { queue_id: id, queue });
  assert.equal(r.status, 200, r.text);
  assertError(await op.call('POST', '/api/queues', { queue_id: id, queue }), 409, 'ALREADY_EXISTS');
  assertError(await op.call('PATCH', `/api/queues/${id}`, { queue: { display_name: 'x' } }), 400,
    'INVALID_ARGUMENT', 'update_mask');
  assertError(await op.call('PATCH', `/api/queues/${id}`,
    { queue: { display_name: 'x' }, update_mask: 'game' }), 400, 'INVALID_ARGUMENT');
  assert.equal((await listed()).display_name, 'Web queue');
  r = await op.call('PATCH', `/api/queues/${id}`,
    { queue: { display_name: 'Renamed' }, update_mask: 'display_name' });
  assert.equal(r.status, 200, r.text);
  assert.equal((await listed()).display_name, 'Renamed');
  const audit = (await op.call('GET', '/api/audit')).json.entries;
  assert.ok(audit.some((e) => e.action === 'create_queue' && e.target === `queues/${id}` && e.outcome === 'OK'));
  assert.ok(audit.some((e) => e.action === 'update_queue' && e.target === `queues/${id}` && e.outcome === 'OK'));
  assert.ok(audit.some((e) => e.action === 'create_queue' && e.outcome.startsWith('ALREADY_EXISTS')));
});

test('a finished match replays step by step with every hand; a match being played does not',
  async () => {
    const p = await player('viewer');
    const done = createMatch('muggins', ['bot:greedy', 'bot:random']);
    const id = matchId(done.match.name);
    const op = await operator();
    await until('the bot match to finish', async () =>
      (await op.call('GET', `/api/matches/${id}`)).json.state === 'FINISHED');
    const record = (await op.call('GET', `/api/matches/${id}/record`)).json;
    const r = await p.call('GET', `/api/replays/${id}`);
    assert.equal(r.status, 200, r.text);
    const actions = record.rounds.flatMap((round) => round.actions);
    assert.equal(r.json.steps.length, actions.length + 1);
    assert.equal(r.json.steps[0].action, '');
    assert.equal(r.json.steps[0].hands.length, 2);
    assert.deepEqual([...r.json.steps[0].hands[0]].sort(), [...record.rounds[0].deal.hands[0].tiles].sort());
    r.json.steps.slice(1).forEach((step, i) => assert.equal(step.action, actions[i].action));
    assert.ok(r.json.steps.at(-1).terminal);
    // Every seat's hand at every step is the one the record's deals and actions give, rebuilt
    // here without the services' code (a dangling view once turned every hand but seat 0's
    // into garbage).
    const holdings = replayHoldings(record);
    assert.ok(record.rounds.length > 1, 'the match should span rounds');
    for (const step of r.json.steps) {
      const at = holdings.get(`${step.round}:${step.index}`);
      assert.ok(at, `the record has no round ${step.round} at step ${step.index}`);
      assert.equal(step.hands.length, at.hands.length, `seats at step ${step.index}`);
      step.hands.forEach((hand, seat) => {
        const shown = hand.map((t) => [...tilesIn(t)][0]).sort();
        assert.deepEqual(shown, [...at.hands[seat]].sort(),
          `seat ${seat}'s hand at step ${step.index}: ${JSON.stringify(hand)}`);
      });
      assert.deepEqual(step.hand_counts, at.hands.map((h) => h.size), `counts at step ${step.index}`);
    }

    const live = createMatch('muggins', ['player:holder', 'bot:random']);
    assertError(await p.call('GET', `/api/replays/${matchId(live.match.name)}`), 400,
      'FAILED_PRECONDITION', 'still being played');
    assertError(await p.call('GET', '/api/replays/no.such'), 400, 'INVALID_ARGUMENT', 'match id');
    assertError(await new Client().call('GET', `/api/replays/${id}`), 401, 'UNAUTHENTICATED');
    await op.call('POST', `/api/matches/${matchId(live.match.name)}/abort`, { reason: 'done' });
  });

test('player pages: account, rating history and match history; unknown players are 404',
  async () => {
    const p = await player('page');
    let r = await p.call('GET', `/api/players/${p.playerId}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.kind, 'HUMAN');
    r = await p.call('GET', `/api/players/${p.playerId}/ratings?game=muggins`);
    assert.equal(r.status, 200, r.text);
    r = await p.call('GET', `/api/players/${p.playerId}/matches`);
    assert.equal(r.status, 200, r.text);
    assertError(await p.call('GET', '/api/players/nobody-at-all'), 404, 'NOT_FOUND');
    assertError(await p.call('GET', `/api/players/${p.playerId}/ratings?game=chess`), 400,
      'INVALID_ARGUMENT');
    assertError(await p.call('GET', '/api/leaderboard/muggins?page_size=0'), 400,
      'INVALID_ARGUMENT', 'page_size');
    r = await p.call('GET', '/api/leaderboard/muggins');
    assert.equal(r.status, 200, r.text);
  });

// Every game, played to its end through the web API by taking the first legal
// action at each turn (the pages offer exactly these actions), with rules that keep it short.
const PLAYABLE = [
  ['castle_rock', ['--format', 'table:1-1']],
  ['muggins', ['--format', 'duel', '--rules', 'target=50']],
  ['chickenfoot', ['--format', 'duel', '--rules', 'rounds=1']],
  ['mexican_train', ['--format', 'duel', '--rules', 'rounds=1,set=9']],
  ['moon', ['--format', 'table:3-3', '--rules', 'target=7']],
  ['forty_two', ['--format', 'teams:2x2', '--rules', 'scoring=marks,marks_target=1']],
  ['eighty_four', ['--format', 'teams:2x3', '--rules', 'players=6,scoring=marks,marks_target=1']],
];

for (const [game, flags] of PLAYABLE) {
  test(`${game} is playable to its end through the web API`, async () => {
    const queue = `all${game.replace('_', '')}${process.pid}`;
    createQueue(queue, game, [...flags, '--bot-fill', '0s', '--casual']);
    const p = await player(game.slice(0, 4));
    const ticket = (await p.call('POST', '/api/tickets', { queue: `queues/${queue}` })).json;
    const tid = ticket.name.split('/')[1];
    await readEvents(p, `/api/tickets/${tid}/events`,
      (evs) => evs.some((e) => e.event === 'ticket' && e.data.state === 'MATCHED'));
    // One stream for the whole match, as the play page keeps it.
    const play = await openEvents(p, `/api/tickets/${tid}/play`);
    let moves = 0;
    let actedAt = -1;  // the sequence of the view last acted on: act on later ones only
    for (;;) {
      const { data: view } = await play.until((e) => e.event === 'view'
        && Number(e.data.sequence) > actedAt
        && (e.data.terminal || e.data.current_seat === e.data.seat));
      assert.equal(view.hand.length, view.hand_counts[view.seat]);
      if (view.terminal) {
        assert.ok(view.result, 'finished with a result');
        break;
      }
      const r = await p.call('POST', `/api/tickets/${tid}/actions`,
        { action: view.legal_actions[0].text, seen_sequence: view.sequence });
      assert.equal(r.status, 200, r.text);
      assert.ok(++moves < 2000, 'the match ends');
      actedAt = Number(view.sequence);
    }
    play.close();
    assert.ok(moves > 0);
  });
}

test('tournaments: operators create and start them, players enter and withdraw themselves; '
  + 'bad requests are refused naming the field and change nothing; no seat token is served',
async () => {
  const op = await operator();
  const ann = await player('tour');
  const bob = await player('tour');
  const id = `apicup${process.pid}`;
  const swiss = { display_name: 'API Swiss', game: 'muggins', format: 'SWISS', rounds: 2 };
  // Players cannot create; malformed bodies name what is wrong.
  let r = await ann.call('POST', '/api/tournaments', { tournament_id: id, tournament: swiss });
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await op.call('POST', '/api/tournaments', { tournament_id: id });
  assertError(r, 400, 'INVALID_ARGUMENT', 'tournament');
  r = await op.call('POST', '/api/tournaments', { tournament_id: id, tournament: { ...swiss, rounds: 0 } });
  assertError(r, 400, 'INVALID_ARGUMENT', 'tournament.rounds');
  r = await op.call('POST', '/api/tournaments', { tournament_id: id, tournament: { ...swiss, format: 'LADDER' } });
  assertError(r, 400, 'INVALID_ARGUMENT', 'tournament');
  r = await op.call('GET', `/api/tournaments/${id}`);
  assertError(r, 404, 'NOT_FOUND');
  r = await op.call('POST', '/api/tournaments', { tournament_id: id, tournament: swiss });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.state, 'REGISTRATION');

  // Players enter themselves; a second entry, another's withdrawal, a bad number are refused.
  r = await ann.call('POST', `/api/tournaments/${id}/entrants`, {});
  assert.equal(r.status, 200, r.text);
  const annNumber = r.json.number;
  r = await ann.call('POST', `/api/tournaments/${id}/entrants`, {});
  assertError(r, 400, 'FAILED_PRECONDITION', 'registered already');
  r = await ann.call('POST', `/api/tournaments/${id}/entrants`, { bot_kind: 'random' });
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await bob.call('POST', `/api/tournaments/${id}/entrants`, {});
  assert.equal(r.status, 200, r.text);
  r = await bob.call('DELETE', `/api/tournaments/${id}/entrants/${annNumber}`);
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await bob.call('DELETE', `/api/tournaments/${id}/entrants/zero`);
  assertError(r, 400, 'INVALID_ARGUMENT', 'entrant');
  r = await bob.call('POST', `/api/tournaments/${id}/entrants`, {}, { headers: { 'x-csrf-token': 'wrong' } });
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await op.call('POST', `/api/tournaments/${id}/entrants`, { bot_kind: 'no_such_bot' });
  assertError(r, 400, 'INVALID_ARGUMENT', 'bot.kind');
  r = await op.call('POST', `/api/tournaments/${id}/entrants`, { bot_kind: 'greedy' });
  assert.equal(r.status, 200, r.text);
  const before = (await op.call('GET', `/api/tournaments/${id}`)).json;
  assert.equal(before.entrants.length, 3);
  r = await ann.call('POST', `/api/tournaments/${id}/start`, {});
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await op.call('POST', `/api/tournaments/bad%20id/start`, {});
  assertError(r, 400, 'INVALID_ARGUMENT', 'tournament id');
  assert.deepEqual((await op.call('GET', `/api/tournaments/${id}`)).json, before);

  r = await op.call('POST', `/api/tournaments/${id}/start`, {});
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.state, 'RUNNING');
  // The page's data has round 1 and the standings; the players' seats are in it as matches,
  // never as tokens — for the players themselves neither.
  for (const who of [ann, op]) {
    r = await who.call('GET', `/api/tournaments/${id}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.rounds.length, 1);
    assert.equal(r.json.standings.rows.length, 3);
    assert.doesNotMatch(r.text, /"token":/);
    for (const round of r.json.rounds) {
      for (const pairing of round.pairings) {
        for (const game of pairing.games) assert.deepEqual(game.seat_tokens, []);
      }
    }
  }
  const audit = (await op.call('GET', '/api/audit')).json.entries;
  assert.ok(audit.some((e) => e.action === 'start_tournament' && e.target === `tournaments/${id}`));
  assert.ok(audit.some((e) => e.action === 'create_tournament' && e.outcome === 'OK'));
});

test('ladders: operators create them, people join and challenge a house bot; a challenge never '
  + 'carries a seat token; bad requests are refused naming the field and change nothing',
async () => {
  const op = await operator();
  const ann = await player('lad');
  const id = `lad${process.pid}`;
  const ladder = {
    display_name: 'Muggins ladder', game: 'muggins', rules: { target: { int_value: 50 } },
    house_bots: [{ bot_id: 'greedy', kind: 'greedy' }], human_vs_bot_weight: 0.5,
  };
  let r = await ann.call('POST', '/api/ladders', { ladder_id: id, ladder });
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await op.call('POST', '/api/ladders', { ladder_id: id, ladder: { ...ladder, game: 'chess' } });
  assertError(r, 400, 'INVALID_ARGUMENT', 'ladder.game');
  r = await op.call('POST', '/api/ladders', { ladder_id: id, ladder: 'muggins' });
  assertError(r, 400, 'INVALID_ARGUMENT', 'ladder');
  r = await op.call('POST', '/api/ladders', { ladder_id: id, ladder });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.house_bots[0].rating_id, `house:${id}:greedy`);

  // Challenging before joining is refused; joining takes a boolean opt-in.
  r = await ann.call('POST', `/api/ladders/${id}/challenges`, { opponent: `ladders/${id}/bots/greedy` });
  assertError(r, 400, 'FAILED_PRECONDITION', 'not a member');
  r = await ann.call('POST', `/api/ladders/${id}/join`, { rated_vs_bots: 'yes' });
  assertError(r, 400, 'INVALID_ARGUMENT', 'rated_vs_bots');
  r = await ann.call('POST', `/api/ladders/${id}/join`, { rated_vs_bots: false });
  assert.equal(r.status, 200, r.text);
  // Rated against a bot without the opt-in: refused.
  r = await ann.call('POST', `/api/ladders/${id}/challenges`, { opponent: `ladders/${id}/bots/greedy`, rated: true });
  assertError(r, 400, 'FAILED_PRECONDITION', 'opted in');
  r = await ann.call('POST', `/api/ladders/${id}/challenges`, { opponent: 42 });
  assertError(r, 400, 'INVALID_ARGUMENT', 'opponent');
  r = await ann.call('POST', `/api/ladders/${id}/challenges`, { opponent: `ladders/${id}/bots/none` });
  assertError(r, 404, 'NOT_FOUND', 'opponent');
  r = await op.call('POST', `/api/challenges/x/accept`, {});
  assertError(r, 403, 'PERMISSION_DENIED');
  const page = (await ann.call('GET', `/api/ladders/${id}`)).json;
  assert.equal(page.ladder.display_name, 'Muggins ladder');

  r = await ann.call('POST', `/api/ladders/${id}/challenges`, { opponent: `ladders/${id}/bots/greedy` });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.state, 'ACCEPTED');
  assert.ok(r.json.match.startsWith('matches/'), r.text);
  const noTokens = (c) => c.seats.every((s) => !s.seat_token);
  assert.ok(noTokens(r.json), r.text);
  const challenge = r.json.name.split('/')[1];
  r = await ann.call('GET', `/api/challenges/${challenge}`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.seats.length, 2);
  assert.ok(noTokens(r.json), r.text);
  // Another person cannot read it, nor play its seat.
  const bob = await player('lad');
  r = await bob.call('GET', `/api/challenges/${challenge}`);
  assertError(r, 403, 'PERMISSION_DENIED');
  r = await bob.call('POST', `/api/challenges/${challenge}/actions`, { action: 'draw', seen_sequence: 0 });
  assertError(r, 403, 'PERMISSION_DENIED');
  const audit = (await op.call('GET', '/api/audit')).json.entries;
  assert.ok(audit.some((e) => e.action === 'create_ladder' && e.target === `ladders/${id}`
    && e.outcome === 'OK'));
});
