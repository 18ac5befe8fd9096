// The plain-JS logic of the queues, ratings, player and replay pages and of render timing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchRoute } from '../src/router.js';
import { chanceText, matchOutcome } from '../src/players/outcome.js';
import { emptyForm, formFromQueue, parseDuration, parseRules, queueFromForm, rulesText, stable, updateMask } from '../src/queues/settings.js';
import { balanceBars, barLabel, evenShare, joinQueues } from '../src/queues/stats.js';
import { layoutChart, niceTicks, ratingPoints } from '../src/ratings/history.js';
import { eachLimited, entryRow, rowLabels } from '../src/ratings/leaderboard.js';
import { pushCapped } from '../src/render-timing.js';
import { clampStep, moveList, resultSummary, seatLabels, stepForKey } from '../src/replay/steps.js';

test('routes of the new pages', () => {
  assert.equal(matchRoute('/ops/queues').name, 'queues');
  assert.equal(matchRoute('/ratings').name, 'ratings');
  assert.deepEqual(matchRoute('/players/ann%20b'), { name: 'player', params: { id: 'ann b' } });
  assert.deepEqual(matchRoute('/replays/abc123'), { name: 'replay', params: { matchId: 'abc123' } });
});

test('durations as typed and as protobuf JSON', () => {
  assert.equal(parseDuration('30s'), 30);
  assert.equal(parseDuration('500ms'), 0.5);
  assert.equal(parseDuration('1m30s'), 90);
  assert.equal(parseDuration('1.500s'), 1.5);
  assert.equal(parseDuration('2h'), 7200);
  assert.equal(parseDuration(' 5 s '), 5);
  assert.equal(parseDuration('12'), 12);
  assert.equal(parseDuration(''), null);
  assert.equal(parseDuration('5x'), null);
  assert.equal(parseDuration('s5'), null);
  assert.equal(parseDuration('5s junk'), null);
});

test('rules text round-trips through RuleValues', () => {
  const rules = parseRules('target=150, claim_scoring=true\npreset=double_12, players=-2');
  assert.deepEqual(rules, {
    target: { int_value: '150' },
    claim_scoring: { bool_value: true },
    preset: { string_value: 'double_12' },
    players: { int_value: '-2' },
  });
  assert.deepEqual(parseRules(rulesText(rules)), rules);
  assert.deepEqual(parseRules('  '), {});
  assert.throws(() => parseRules('target'), /rules: "target" is not name=value/);
});

const served = {
  name: 'queues/q1',
  display_name: 'Muggins duel',
  game: 'muggins',
  rules: { target: { int_value: '150' } },
  rated: true,
  format: { free_for_all: { min_players: 2, max_players: 4, short_table_after: '20s' } },
  window: { initial: 3, per_second: 0.25, max: 25 },
  bot_fill: { enabled: true, bot_kind: 'greedy', levels: [{ min_skill: 20, bot_kind: 'greedy' }], rated: false, after: '5s' },
  clock: { per_move: '30s', timeout_policy: 'FORFEIT' },
  create_time: '2026-11-26T05:49:44Z',
};

test('a served queue becomes the form and back without losing what the form does not show', () => {
  const form = formFromQueue(served);
  assert.equal(form.queue_id, 'q1');
  assert.equal(form.format, 'free_for_all');
  assert.equal(form.rules, 'target=150');
  const queue = queueFromForm(form);
  assert.deepEqual(queue.format, { free_for_all: { min_players: 2, max_players: 4, short_table_after: '20s' } });
  assert.deepEqual(queue.bot_fill, { enabled: true, after: '5s', bot_kind: 'greedy', levels: [{ min_skill: 20, bot_kind: 'greedy' }], rated: false });
  assert.deepEqual(queue.clock, { per_move: '30s', timeout_policy: 'FORFEIT' });
  assert.deepEqual(queue.rules, served.rules);
  assert.equal(queue.max_wait, undefined);
});

test('a new queue: head to head, no clock when the time is empty, teams as counts', () => {
  const form = { ...emptyForm(), queue_id: 'x', display_name: ' X ', per_move: '', format: 'teams', teams: '2', team_size: '3', max_wait: '5m' };
  const queue = queueFromForm(form);
  assert.equal(queue.display_name, 'X');
  assert.deepEqual(queue.clock, {});
  assert.deepEqual(queue.format, { teams: { teams: 2, team_size: 3 } });
  assert.equal(queue.max_wait, '300s');
  assert.deepEqual(queueFromForm({ ...emptyForm() }).format, { head_to_head: {} });
});

test('the form says which field cannot be sent', () => {
  assert.throws(() => queueFromForm({ ...emptyForm(), per_move: 'soon' }), (e) => e.field === 'per_move' && /per move: "soon" is not a duration/.test(e.message));
  assert.throws(() => queueFromForm({ ...emptyForm(), format: 'teams', teams: 'two' }), (e) => e.field === 'teams');
  assert.throws(() => queueFromForm({ ...emptyForm(), window_max: '' }), (e) => e.field === 'window_max');
});

test('the update mask names only the fields changed', () => {
  const before = formFromQueue(served);
  const base = queueFromForm(before);
  assert.equal(updateMask(base, queueFromForm(before)), '');
  assert.equal(updateMask(base, queueFromForm({ ...before, display_name: 'New' })), 'display_name');
  assert.equal(updateMask(base, queueFromForm({ ...before, display_name: 'New', bot_after: '10s' })), 'display_name,bot_fill');
  assert.equal(updateMask(base, queueFromForm({ ...before, per_move: '' })), 'clock');
  assert.equal(updateMask(base, queueFromForm({ ...before, max_wait: '1m' })), 'max_wait');
  assert.equal(updateMask(base, queueFromForm({ ...before, rules: 'target=150 ' })), '');
  assert.equal(stable({ b: 1, a: [1, { d: 2, c: undefined }] }), '{"a":[1,{"d":2}],"b":1}');
});

test('queue settings join the overview counters', () => {
  const rows = joinQueues([{ name: 'queues/a' }, { name: 'queues/b' }], [{ queue: 'queues/b', searching: 2 }, { queue: 'queues/gone', searching: 0 }]);
  assert.deepEqual(
    rows.map((r) => [r.name, !!r.queue, r.stats && r.stats.searching]),
    [
      ['queues/a', true, null],
      ['queues/b', true, 2],
      ['queues/gone', false, 0],
    ],
  );
  assert.deepEqual(joinQueues(null, undefined), []);
});

test('balance buckets become bars from the previous bound', () => {
  const bars = balanceBars([{ le: 0.5, matches: 3 }, { le: 0.3, matches: 1 }, { le: 0.7, matches: 0 }, { le: 'x', matches: 9 }]);
  assert.deepEqual(bars, [
    { from: 0, to: 0.3, matches: 1 },
    { from: 0.3, to: 0.5, matches: 3 },
    { from: 0.5, to: 0.7, matches: 0 },
  ]);
  assert.equal(barLabel({ from: 0.45, to: 0.475 }), '45–47.5 %');
  assert.equal(evenShare(balanceBars([{ le: 0.45, matches: 1 }, { le: 0.5, matches: 2 }, { le: 0.55, matches: 1 }])), 0.75);
  assert.equal(evenShare([]), null);
});

const change = (end, before, after, rank = 1) => ({ match: `matches/${end}`, rank, ordinal_before: before, ordinal_after: after, match_end_time: `2026-11-26T05:5${end}:00Z` });

test('rating history: oldest first, starting from the rating before the first change', () => {
  const points = ratingPoints([change(3, 2, 4), change(2, 1, 2), change(1, 0, 1), { match_end_time: 'never' }]);
  assert.deepEqual(points.map((p) => p.rating), [0, 1, 2, 4]);
  assert.equal(points[0].change, null);
  assert.equal(points[0].time, points[1].time);
  assert.deepEqual(ratingPoints([]), []);
});

test('chart layout: time across, rating up, equal times spread by order', () => {
  const at = (t, rating) => ({ time: t, rating });
  const chart = layoutChart([at(0, 0), at(10, 10)], 100, 50, 0);
  assert.deepEqual(chart.xy, [[0, 50], [100, 0]]);
  const same = layoutChart([at(5, 1), at(5, 2), at(5, 3)], 100, 50, 0);
  assert.deepEqual(same.xy.map(([x]) => x), [0, 50, 100]);
  const flat = layoutChart([at(0, 7), at(1, 7)], 100, 50, 0);
  assert.deepEqual(flat.xy.map(([, y]) => y), [25, 25]);
  assert.deepEqual(niceTicks(-6.5, 0, 4), [-6, -4, -2, 0]);
  assert.deepEqual(niceTicks(10.2, 17.9, 4), [12, 14, 16]);
  assert.deepEqual(niceTicks(3, 3), [3]);
});

test('leaderboard entries: ratings, solitaire results, labels', () => {
  const rated = entryRow({ rank: 2, player_id: 'ann', rating: { ordinal: 1.5, mu: 20, sigma: 6, games_played: 3, provisional: true } });
  assert.equal(rated.kind, 'rating');
  assert.equal(rated.games, 3);
  const kinds = new Map([['ann', 'BOT'], ['bob', 'HUMAN']]);
  assert.deepEqual(rowLabels(rated, kinds), ['provisional', 'bot']);
  assert.deepEqual(rowLabels({ ...rated, provisional: false, playerId: 'bob' }, kinds), []);
  const solo = entryRow({ rank: 1, player_id: 'cat', result: { tiles_left: 2, pips_left: 9, duration_millis: '5609', won: true, match: 'matches/m' } });
  assert.deepEqual([solo.kind, solo.tilesLeft, solo.pipsLeft, solo.seconds, solo.won], ['result', 2, 9, 5.609, true]);
  assert.deepEqual(rowLabels(solo, new Map()), []);
});

test('account reads run a few at a time', async () => {
  let running = 0;
  let most = 0;
  const done = [];
  await eachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 2));
    done.push(n);
    running--;
  });
  assert.equal(most, 3);
  assert.deepEqual(done.sort(), [1, 2, 3, 4, 5, 6, 7]);
  await eachLimited([], 3, async () => assert.fail('no work'));
});

test("a player's match: finished with its seat's rank and score, or no result yet", () => {
  const m = { seat: 1, result: { ranks: [2, 1], scores: [180, 250], winners: [1] } };
  assert.deepEqual(matchOutcome(m), { finished: true, won: true, rank: 1, score: 250, seats: 2 });
  assert.deepEqual(matchOutcome({ seat: 0 }), { finished: false });
  assert.equal(chanceText(0.4849), '48 %');
  assert.equal(chanceText(0), '');
});

test('replay steps: clamped, moved by keys', () => {
  assert.equal(clampStep('5', 10), 5);
  assert.equal(clampStep('50', 10), 9);
  assert.equal(clampStep('-3', 10), 0);
  assert.equal(clampStep('x', 10), 0);
  assert.equal(clampStep(null, 10), 0);
  assert.equal(clampStep('3', 0), 0);
  assert.equal(stepForKey('ArrowRight', 3, 10), 4);
  assert.equal(stepForKey('ArrowRight', 9, 10), 9);
  assert.equal(stepForKey('ArrowLeft', 0, 10), 0);
  assert.equal(stepForKey('Home', 5, 10), 0);
  assert.equal(stepForKey('End', 5, 10), 9);
  assert.equal(stepForKey('PageDown', 5, 10), 9);
  assert.equal(stepForKey('PageUp', 15, 30), 5);
  assert.equal(stepForKey('a', 5, 10), null);
});

test('the move list puts a round-ending move in the round it ends', () => {
  const steps = [
    { round: 0, seat: -1, action: '' },
    { round: 0, seat: 0, action: '5-3' },
    { round: 1, seat: 1, action: { text: '2-0 left' } }, // dominoes: the next step is the new deal
    { round: 1, seat: 0, action: '6-6' },
  ];
  assert.deepEqual(moveList(steps), [
    { index: 1, round: 0, seat: 0, action: '5-3', roundStart: false },
    { index: 2, round: 0, seat: 1, action: '2-0 left', roundStart: false },
    { index: 3, round: 1, seat: 0, action: '6-6', roundStart: true },
  ]);
  assert.deepEqual(moveList([{ round: 0 }]), []);
});

test("a record's seat labels link players, not built-in bots", () => {
  assert.deepEqual(seatLabels({ seats: ['ann', 'greedy', ''] }), [
    { label: 'ann', player: 'ann', team: -1 },
    { label: 'greedy', player: '', team: -1 },
    { label: '', player: '', team: -1 },
  ]);
  const teams = [{ seats: [0, 2] }, { seats: [1, 3] }];
  assert.deepEqual(seatLabels({ seats: ['a', 'b', 'c', 'd'], teams }).map((s) => s.team), [0, 1, 0, 1]);
});

test('render times keep the newest 10,000', () => {
  const list = [];
  for (let i = 0; i < 5; i++) pushCapped(list, i, 3);
  assert.deepEqual(list, [2, 3, 4]);
  const big = Array.from({ length: 10000 }, (_, i) => i);
  pushCapped(big, 10000);
  assert.equal(big.length, 10000);
  assert.equal(big[0], 1);
});

test('the one-line result of a replay', () => {
  assert.equal(resultSummary({ scores: [250, 145], winners: [0] }), 'won by seat 0 · 250 – 145');
  assert.equal(resultSummary({ scores: [4], winners: [0], details: { won: false, tiles_left: 4 } }), 'not won · 4 tiles left');
  assert.equal(resultSummary({ scores: [1], winners: [0], details: { won: true, tiles_left: 1 } }), 'won · 1 tile left');
  assert.equal(resultSummary(undefined), 'aborted: no result');
});
