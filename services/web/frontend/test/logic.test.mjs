// The page logic that is plain JavaScript (no DOM): grouping legal actions, views and their
// sequence numbers, tile notation, routes. Run with `npm test` (node's own test runner).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionText } from '../src/format.js';
import { groupActions, tileClick } from '../src/play/actions.js';
import { matchRoute } from '../src/router.js';
import { parseTile, reversed } from '../src/board/tiles.js';
import { appendEvent, newer } from '../src/views.js';

const actions = (...texts) => texts.map((text) => ({ text }));

test('legal actions are grouped by their leading tile', () => {
  const { byTile, other } = groupActions(actions('5-5', '5-5 claim', '6-4 left', '6-4 right', "6-4' train 2", '9-4 @0', 'draw', 'bid 30', 'discard 6-4'));
  assert.deepEqual(byTile.get('5-5'), [{ text: '5-5', label: 'play' }, { text: '5-5 claim', label: 'claim' }]);
  assert.deepEqual(byTile.get('6-4').map((a) => a.label), ['left', 'right']);
  assert.deepEqual(byTile.get("6-4'"), [{ text: "6-4' train 2", label: 'train 2' }]);
  assert.deepEqual(byTile.get('9-4'), [{ text: '9-4 @0', label: '@0' }]);
  assert.deepEqual(other.map((a) => a.text), ['draw', 'bid 30', 'discard 6-4']);
});

test('a tile click plays its only action, offers several, or sends the tile alone', () => {
  const { byTile } = groupActions(actions('6-4 left', '6-4 right', '3-2 left'));
  assert.deepEqual(tileClick('3-2', byTile), { send: '3-2 left' });
  assert.deepEqual(tileClick('6-4', byTile), { select: '6-4' });
  assert.deepEqual(tileClick('1-1', byTile), { send: '1-1' });
});

test('actions may be protobuf JSON objects or plain strings', () => {
  assert.equal(actionText({ text: 'draw' }), 'draw');
  assert.equal(actionText('draw'), 'draw');
  assert.equal(actionText(null), '');
});

test('the newest view wins, with int64 sequences as strings', () => {
  const a = { sequence: '9' };
  const b = { sequence: '10' };
  assert.equal(newer(a, b), b);
  assert.equal(newer(b, a), b);
  assert.equal(newer(null, a), a);
});

test('the event log appends each new event once', () => {
  const view = (n) => ({ last_event: { sequence: String(n), seat: 0, action: { text: 'draw' } } });
  let log = appendEvent([], view(1));
  log = appendEvent(log, view(1));
  log = appendEvent(log, view(2));
  log = appendEvent(log, { last_event: null });
  assert.deepEqual(log.map((e) => e.sequence), ['1', '2']);
});

test('tiles parse with the second-set mark and up to 18 pips', () => {
  assert.deepEqual(parseTile("6-4'"), { a: 6, b: 4, second: true, double: false });
  assert.deepEqual(parseTile('12-12'), { a: 12, b: 12, second: false, double: true });
  assert.equal(parseTile('19-1'), null);
  assert.equal(parseTile('draw'), null);
  assert.equal(reversed("3-4'"), "4-3'");
});

test('routes', () => {
  assert.deepEqual(matchRoute('/ops/matches/abc'), { name: 'match', params: { id: 'abc' } });
  assert.deepEqual(matchRoute('/play/t%201'), { name: 'play', params: { ticketId: 't 1' } });
  assert.equal(matchRoute('/ops/').name, 'overview');
  assert.equal(matchRoute('/nope').name, 'notfound');
});
