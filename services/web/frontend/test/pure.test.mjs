// What a live page skips drawing again between two views: props compared with arrays by their
// elements, and tiles keyed by themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tileKeys } from '../src/board/tiles.js';
import { pure, sameProps, sameValue } from '../src/pure.js';

test('a freshly parsed train with the same tiles is the same', () => {
  const before = JSON.parse('{"name":"train 1","tiles":["3-5","5-4"],"size":22}');
  const again = JSON.parse('{"name":"train 1","tiles":["3-5","5-4"],"size":22}');
  assert.ok(sameProps(before, again));
  assert.ok(!sameProps(before, { ...again, tiles: ['3-5', '5-4', '4-0'] }));
  assert.ok(!sameProps(before, { ...again, tiles: ['3-5', '5-1'] }));
  assert.ok(!sameProps(before, { ...again, marker: true }));
  assert.ok(!sameProps({ ...before, marker: undefined }, again));
});

test('only arrays are compared by their elements, one level deep', () => {
  assert.ok(sameValue([], []));
  assert.ok(!sameValue({ pip: 3 }, { pip: 3 }));
  assert.ok(!sameValue([['a']], [['a']]));
  assert.ok(!sameValue(['1'], [1]));
  assert.ok(!sameValue(null, []));
});

test('a pure component updates only when its props change', () => {
  const Train = pure(function Train() {
    return null;
  });
  const drawn = new Train({ tiles: ['3-5'], size: 22 });
  assert.equal(drawn.shouldComponentUpdate({ tiles: ['3-5'], size: 22 }), false);
  assert.equal(drawn.shouldComponentUpdate({ tiles: ['3-5'], size: 26 }), true);
  assert.equal(Train.displayName, 'Train');
});

test('tiles are keyed by themselves, repeats made unique', () => {
  assert.deepEqual(tileKeys(['2-4', '4-4', "4-4'"]), ['2-4', '4-4', "4-4'"]);
  assert.deepEqual(tileKeys(['6-4', '6-4', '1-1', '6-4']), ['6-4', '6-4#2', '1-1', '6-4#3']);
  assert.deepEqual(tileKeys([]), []);
});
