// What a live page skips drawing again between two views: props compared with arrays by their
// elements, and tiles keyed by themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tileKeys } from '../src/board/tiles.js';
import { pure, sameProps, sameValue } from '../src/pure.js';
import { arenaClock, arenaGames, bracketColumns, clockText, createBody, divisionTables, durationMs, spanText, formatPoints, handComparisons, outcomeText, pairCountRows, partnerTeams, sheetGames, tableSeats, winnerOf } from '../src/tournaments/page.js';

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


test('tournament results read as a score sheet writes them', () => {
  assert.equal(outcomeText('WHITE_WON'), '1-0');
  assert.equal(outcomeText('DRAWN'), '½-½');
  assert.equal(outcomeText('OUTCOME_UNSPECIFIED'), '');
  assert.equal(winnerOf('BLACK_FORFEITED'), 'white');
  assert.equal(winnerOf('WHITE_FORFEITED'), 'black');
  assert.equal(winnerOf('BOTH_FORFEITED'), '');
});

test('a knockout bracket puts winners rounds first, then losers, then the grand final', () => {
  const rounds = [
    { pairings: [{ tie: 'W1-2' }, { tie: 'W1-1' }] },
    { pairings: [{ tie: 'L1-1' }, { tie: 'W2-1' }] },
    { pairings: [{ tie: 'GF' }] },
  ];
  const columns = bracketColumns(rounds);
  assert.deepEqual(columns.map((c) => c.title), ['Round 1', 'Round 2', 'Losers 1', 'Grand final']);
  assert.deepEqual(columns[0].ties.map((t) => t.tie), ['W1-1', 'W1-2']);
  assert.deepEqual(bracketColumns([{ pairings: [{ tie: '' }] }]), []);
});

test('the create form sends only its format\'s settings', () => {
  const swiss = createBody({ id: 'spring', name: 'Spring', game: 'muggins', format: 'SWISS', rounds: '5', team_size: '1', best_of: '3', tiebreaks: 'BH, SB,' });
  assert.deepEqual(swiss, { tournament_id: 'spring', tournament: { display_name: 'Spring', game: 'muggins', format: 'SWISS', team_size: 1, rated: false, tiebreaks: ['BH', 'SB'], rounds: 5 } });
  const cup = createBody({ id: 'cup', name: 'Cup', game: 'forty_two', format: 'KNOCKOUT', team_size: '2', best_of: '3', tiebreaks: '' });
  assert.equal(cup.tournament.best_of, 3);
  assert.equal(cup.tournament.rounds, undefined);
});

test('a round robin or a Swiss at tables sends its table size, not a double cycle', () => {
  const tables = createBody({ id: 'night', name: 'Night', game: 'moon', format: 'ROUND_ROBIN', table_size: '3', double: true, team_size: '1', tiebreaks: 'WIN' });
  assert.equal(tables.tournament.table_size, 3);
  assert.equal(tables.tournament.double_round_robin, undefined);
  const duel = createBody({ id: 'rr', name: 'RR', game: 'muggins', format: 'ROUND_ROBIN', table_size: '0', double: true, team_size: '1', tiebreaks: '' });
  assert.equal(duel.tournament.table_size, undefined);
  assert.equal(duel.tournament.double_round_robin, true);
  const swiss = createBody({ id: 's', name: 'S', game: 'muggins', format: 'SWISS', rounds: '4', table_size: '4', team_size: '1', tiebreaks: '' });
  assert.equal(swiss.tournament.table_size, 4);
  assert.equal(swiss.tournament.rounds, 4);
  assert.equal(createBody({ id: 'k', name: 'K', game: 'muggins', format: 'KNOCKOUT', table_size: '4', tiebreaks: '' }).tournament.table_size, undefined);
});

test('duplicate deals are asked for only where tables deal alike', () => {
  const base = { id: 'd', name: 'D', game: 'mexican_train', team_size: '1', tiebreaks: '', duplicate: true };
  assert.equal(createBody({ ...base, format: 'ROUND_ROBIN', table_size: '4' }).tournament.duplicate, true);
  assert.equal(createBody({ ...base, game: 'forty_two', format: 'PARTNER_ROTATION' }).tournament.duplicate, true);
  assert.equal(createBody({ ...base, format: 'SWISS', rounds: '3', table_size: '0' }).tournament.duplicate, undefined);
  assert.equal(createBody({ ...base, format: 'ROUND_ROBIN', table_size: '4', duplicate: false }).tournament.duplicate, undefined);
});

test('a duplicate round\'s hands list their holders as the service ranked them', () => {
  const names = new Map([[1, 'Ann'], [2, 'Bo']]);
  assert.deepEqual(handComparisons({ state: 'PLAYING' }, names), []);
  assert.deepEqual(handComparisons(undefined, names), []);
  const hands = handComparisons({ seed: '42', comparisons: [
    { table_size: 4, results: [{ entrant: 2, board: 1, place: 1, score: 12, matchpoints: 1 }, { entrant: 7, board: 2, place: 3, score: 40 }] },
    { table_size: 4, seat: 3, results: [] },
  ] }, names);
  assert.deepEqual(hands.map((h) => [h.title, h.seat]), [['Seat 1 of 4', 0], ['Seat 4 of 4', 3]]);
  assert.deepEqual(hands[0].results.map((r) => [r.name, r.board, r.place, r.score, r.matchpoints]),
    [['Bo', 1, 1, 12, 1], ['7', 2, 3, 40, 0]]);
  assert.equal(hands[0].results[1].pips_left, 0);
  const solitaire = handComparisons({ comparisons: [{ table_size: 1, results: [{ entrant: 1, board: 1, place: 1, score: 3, pips_left: 17 }] }] }, names);
  assert.equal(solitaire[0].title, 'Seat 1 of 1');
  assert.equal(solitaire[0].results[0].pips_left, 17);
  assert.notEqual(hands[0].key, hands[1].key);
});

test('table points read whole when whole, else to two decimals', () => {
  assert.equal(formatPoints(1), '1');
  assert.equal(formatPoints(0.5), '0.5');
  assert.equal(formatPoints(5 / 6), '0.83');
  assert.equal(formatPoints(undefined), '0');
});

test('a table shows its seats in order with places and points once played', () => {
  const names = new Map([[4, 'Ann'], [2, 'Bo']]);
  assert.deepEqual(tableSeats({ table: [4, 2, 9] }, names).map((s) => [s.name, s.place]),
    [['Ann', 0], ['Bo', 0], ['9', 0]]);
  const done = tableSeats({ table: [4, 2], places: [2, 1], points: [0, 1] }, names);
  assert.deepEqual(done.map((s) => [s.entrant, s.place, s.points]), [[4, 2, 0], [2, 1, 1]]);
});

test('a partner rotation table is two teams from alternating seats', () => {
  const names = new Map([[1, 'Ann'], [2, 'Bo'], [3, 'Cy'], [4, 'Di']]);
  const playing = partnerTeams({ table: [3, 1, 4, 2] }, names);
  assert.deepEqual(playing.map((t) => t.names), [['Cy', 'Di'], ['Ann', 'Bo']]);
  assert.deepEqual(playing.map((t) => t.place), [0, 0]);
  const done = partnerTeams({ table: [3, 1, 4, 2], places: [3, 1, 3, 1], points: [0, 1, 0, 1] }, names);
  assert.deepEqual(done.map((t) => [t.place, t.points]), [[3, 0], [1, 1]]);
});

test('pair counts become rows with the diagonal empty, and malformed counts none', () => {
  const names = new Map([[1, 'Ann'], [2, 'Bo']]);
  const rows = pairCountRows({ entrants: [1, 2], partners: [0, 1, 1, 0], opponents: [0, 2, 2, 0] }, names);
  assert.equal(rows.length, 2);
  assert.equal(rows[0].cells[0], null);
  assert.deepEqual(rows[0].cells[1], { entrant: 2, partners: 1, opponents: 2 });
  assert.equal(rows[1].name, 'Bo');
  assert.deepEqual(pairCountRows({ entrants: [1, 2], partners: [0, 1], opponents: [] }, names), []);
  assert.deepEqual(pairCountRows(undefined, names), []);
});

test('a partner rotation is created for individuals, with its rounds and only WIN and GP', () => {
  const body = createBody({ id: 'p', name: 'P', game: 'forty_two', format: 'PARTNER_ROTATION', rounds: '0', team_size: '2', table_size: '4', tiebreaks: 'BH,WIN,GP' });
  assert.equal(body.tournament.format, 'PARTNER_ROTATION');
  assert.equal(body.tournament.team_size, 1);
  assert.equal(body.tournament.rounds, 0);
  assert.equal(body.tournament.table_size, undefined);
  assert.deepEqual(body.tournament.tiebreaks, ['WIN', 'GP']);
});

test("an arena's sheet reads back its wins, draws and the doubled games of a streak", () => {
  const games = sheetGames([2, 2, 4, 4, 2, 0, 2]);
  assert.deepEqual(games.map((g) => g.result), ['win', 'win', 'win', 'win', 'draw', 'loss', 'win']);
  assert.deepEqual(games.map((g) => g.doubled), [false, false, true, true, true, false, false]);
  // Off a streak a 2 is a win, a 1 a draw.
  assert.deepEqual(sheetGames([1, 2, 0]).map((g) => g.result), ['draw', 'win', 'loss']);
  assert.deepEqual(sheetGames(undefined), []);
});

test("an arena's clock counts down to its close and stops at zero", () => {
  const t = { format: 'ARENA', start_time: '2026-11-27T10:00:00Z', duration: '1800s' };
  const start = Date.parse(t.start_time);
  assert.equal(arenaClock(t, start + 60000).left, 29 * 60000);
  assert.equal(arenaClock(t, start + 3600000).left, 0);
  assert.equal(arenaClock({ ...t, format: 'SWISS' }, start), null);
  assert.equal(arenaClock({ ...t, start_time: undefined }, start), null);
  assert.equal(clockText(29 * 60000 + 1500), '29:02');
  assert.equal(clockText(3723000), '1:02:03');
  assert.equal(durationMs('0.5s'), 500);
  assert.equal(durationMs('nonsense'), 0);
});

test("an arena's games split into those being played and the results, latest first", () => {
  const names = new Map([[1, 'Ann'], [2, 'Bob'], [3, 'Cy'], [4, 'Di']]);
  const rounds = [
    { number: 1, pairings: [{ board: 1, white: 1, black: 2, outcome: 'WHITE_WON', games: [{ match: 'matches/a' }] }, { board: 2, white: 3, black: 4 }] },
    { number: 2, pairings: [{ board: 1, white: 2, black: 1, outcome: 'DRAWN', games: [{ match: 'matches/b' }] }] },
  ];
  const { playing, decided } = arenaGames(rounds, names);
  assert.deepEqual(playing.map((g) => `${g.white}-${g.black}`), ['Cy-Di']);
  assert.deepEqual(decided.map((g) => g.match), ['matches/b', 'matches/a']);
});

test('an arena is created with its window and nothing an arena refuses', () => {
  const body = createBody({ id: 'fri', name: 'Friday', game: 'muggins', format: 'ARENA', minutes: '45', rounds: 3, team_size: 1, tiebreaks: 'BH,SB', table_size: 4, duplicate: true });
  assert.equal(body.tournament.duration, '2700s');
  assert.deepEqual(body.tournament.tiebreaks, []);
  assert.equal(body.tournament.rounds, undefined);
  assert.equal(body.tournament.table_size, undefined);
  assert.equal(body.tournament.duplicate, undefined);
});

test("a league's standings are one table per division, in the service's order", () => {
  const rows = [{ entrant: 1, division: 1 }, { entrant: 2, division: 1 }, { entrant: 3, division: 2 }];
  assert.deepEqual(divisionTables({ rows }).map((g) => [g.division, g.rows.map((r) => r.entrant)]), [[1, [1, 2]], [2, [3]]]);
  assert.deepEqual(divisionTables({ rows: [{ entrant: 4 }] }).map((g) => g.division), [0]);
  assert.deepEqual(divisionTables(undefined), []);
});

test('a league is created with its calendar and divisions; spans read in whole units', () => {
  const body = createBody({ id: 'w', name: 'Winter', game: 'muggins', format: 'LEAGUE', interval_hours: '168', division_size: '8', promotion: '2', tiebreaks: 'SB', double: true });
  assert.deepEqual(body.tournament.league, { round_interval: '604800s', division_size: 8, promotion: 2 });
  assert.equal(body.tournament.double_round_robin, true);
  assert.deepEqual(body.tournament.tiebreaks, ['SB']);
  assert.equal(spanText(7 * 86400000), '7 days');
  assert.equal(spanText(36 * 3600000), '36 hours');
  assert.equal(spanText(60000), '1 minute');
});
