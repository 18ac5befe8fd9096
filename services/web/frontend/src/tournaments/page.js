// The event pages' plain logic (no DOM, tested with node): result text, who is who, rounds
// grouped for a knockout bracket, and the body a create form sends.

const outcomeTexts = {
  WHITE_WON: '1-0',
  BLACK_WON: '0-1',
  DRAWN: '½-½',
  BLACK_FORFEITED: '+ −',
  WHITE_FORFEITED: '− +',
  BOTH_FORFEITED: '− −',
  BYE: 'bye',
};

// A pairing's result as a score sheet writes it; '' while it is played.
export function outcomeText(outcome) {
  return outcomeTexts[outcome] || '';
}

// entrant number -> display name.
export function namesOf(entrants) {
  return new Map((entrants || []).map((e) => [e.number, e.display_name]));
}

// Table points as a score sheet writes them: whole numbers whole, fractions (a shared place's
// half, a duplicate round's matchpoints) to two decimals at most: 1, 0.5, 0.83.
export function formatPoints(value) {
  const n = Number(value) || 0;
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2)));
}

// A table's seats in seat order (a round robin at tables): each entrant's name and, once its
// game is over, its place (1 best) and points.
export function tableSeats(pairing, names) {
  const places = pairing.places || [];
  const points = pairing.points || [];
  return (pairing.table || []).map((entrant, seat) => ({
    entrant,
    name: names.get(entrant) || String(entrant),
    place: places[seat] || 0,
    points: points[seat] || 0,
  }));
}

// A partner rotation's table as its two teams (seats alternate between them, team A in the
// even seats), each with its players' names, its place and its points once the game is over.
export function partnerTeams(pairing, names) {
  const seats = tableSeats(pairing, names);
  return [0, 1].map((parity) => {
    const members = seats.filter((_, seat) => seat % 2 === parity);
    return {
      names: members.map((m) => m.name),
      place: members.length ? members[0].place : 0,
      points: members.length ? members[0].points : 0,
    };
  });
}

// A partner rotation's pair counts as rows for a table: [{entrant, name, cells: [{entrant,
// partners, opponents} or null on the diagonal]}], in entrant order; [] when absent or
// malformed.
export function pairCountRows(counts, names) {
  const entrants = (counts && counts.entrants) || [];
  const n = entrants.length;
  const partners = counts ? counts.partners || [] : [];
  const opponents = counts ? counts.opponents || [] : [];
  if (n === 0 || partners.length !== n * n || opponents.length !== n * n) return [];
  return entrants.map((entrant, i) => ({
    entrant,
    name: names.get(entrant) || String(entrant),
    cells: entrants.map((other, j) => (i === j ? null : { entrant: other, partners: partners[i * n + j], opponents: opponents[i * n + j] })),
  }));
}

// A finished duplicate round's comparisons (Round.comparisons: each hand's holders, best first)
// as [{key, title, results: [{entrant, name, board, place, score, pips_left, matchpoints}]}]
// (pips_left: a solitaire's second measure, else 0); [] while the
// round is played (the service shows none before every table is over).
export function handComparisons(round, names) {
  return ((round && round.comparisons) || []).map((c) => {
    const seat = c.seat || 0;
    return {
      key: `${c.table_size || 0}-${seat}`,
      seat,
      title: `Seat ${seat + 1} of ${c.table_size || 0}`,
      results: (c.results || []).map((r) => ({
        entrant: r.entrant || 0,
        name: names.get(r.entrant) || String(r.entrant || 0),
        board: r.board || 0,
        place: r.place || 0,
        score: r.score || 0,
        pips_left: r.pips_left || 0,
        matchpoints: r.matchpoints || 0,
      })),
    };
  });
}

// Which side won a decided pairing: 'white', 'black', 'both' (a draw), '' (none yet or both
// forfeited).
export function winnerOf(outcome) {
  if (outcome === 'WHITE_WON' || outcome === 'BLACK_FORFEITED' || outcome === 'BYE') return 'white';
  if (outcome === 'BLACK_WON' || outcome === 'WHITE_FORFEITED') return 'black';
  if (outcome === 'DRAWN') return 'both';
  return '';
}

// A knockout's ties by bracket part and round ("W1-2" is winners' round 1, position 2), each
// column in position order: [{part, round, title, ties: [pairing]}], winners first, then the
// losers' bracket, then the grand final(s).
export function bracketColumns(rounds) {
  const columns = new Map();
  for (const round of rounds || []) {
    for (const p of round.pairings || []) {
      const match = /^([WL])(\d+)-(\d+)$/.exec(p.tie || '');
      const part = match ? match[1] : p.tie === 'GF' || p.tie === 'GF2' ? 'G' : '';
      if (!part) continue;
      const number = match ? Number(match[2]) : p.tie === 'GF' ? 1 : 2;
      const key = `${part}${number}`;
      if (!columns.has(key)) {
        const title =
          part === 'W' ? `Round ${number}` : part === 'L' ? `Losers ${number}` : number === 1 ? 'Grand final' : 'Reset';
        columns.set(key, { part, round: number, title, ties: [] });
      }
      columns.get(key).ties.push({ ...p, position: match ? Number(match[3]) : 1 });
    }
  }
  const order = { W: 0, L: 1, G: 2 };
  const list = [...columns.values()].sort((a, b) => order[a.part] - order[b.part] || a.round - b.round);
  for (const column of list) column.ties.sort((a, b) => a.position - b.position);
  return list;
}

// The CreateTournament body from the form's fields.
export function createBody(form) {
  const tournament = {
    display_name: form.name,
    game: form.game,
    format: form.format,
    team_size: Number(form.team_size) || 1,
    rated: !!form.rated,
    tiebreaks: String(form.tiebreaks || '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
  if (form.format === 'SWISS') tournament.rounds = Number(form.rounds) || 0;
  if (form.format === 'PARTNER_ROTATION') {
    // The service makes the teams and the tables; tables rank by points, then WIN and GP only.
    tournament.rounds = Number(form.rounds) || 0;
    tournament.team_size = 1;
    tournament.tiebreaks = tournament.tiebreaks.filter((t) => t === 'WIN' || t === 'GP');
  }
  if (form.format === 'KNOCKOUT') tournament.best_of = Number(form.best_of) || 1;
  const atTables = (form.format === 'ROUND_ROBIN' || form.format === 'SWISS') && Number(form.table_size) > 0;
  if (atTables) {
    tournament.table_size = Number(form.table_size);
  } else if (form.format === 'ROUND_ROBIN' && form.double) {
    tournament.double_round_robin = true;
  }
  if (form.format === 'LEAGUE') {
    // The service writes the season's fixtures from the calendar and the divisions.
    tournament.league = {
      round_interval: `${Math.round((Number(form.interval_hours) || 0) * 3600)}s`,
      division_size: Number(form.division_size) || 0,
      promotion: Number(form.promotion) || 0,
    };
    if (form.double) tournament.double_round_robin = true;
    return { tournament_id: form.id, tournament };
  }
  if (form.format === 'ARENA') {
    // An arena is paired and ranked by the service: no rounds, tables or tie-breaks of its own.
    tournament.duration = `${Math.round((Number(form.minutes) || 0) * 60)}s`;
    tournament.tiebreaks = [];
    return { tournament_id: form.id, tournament };
  }
  // Duplicate deals need tables to deal alike; a two-sided event would be refused.
  if (form.duplicate && (atTables || form.format === 'PARTNER_ROTATION')) tournament.duplicate = true;
  return { tournament_id: form.id, tournament };
}

// Whether the page should keep reading the event: it is running.
export const isLive = (tournament) => !!tournament && tournament.state === 'RUNNING';

// A protobuf Duration as JSON writes it ("1800s", "0.5s") in milliseconds; 0 when absent.
export function durationMs(text) {
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(String(text || ''));
  return m ? Math.round(Number(m[1]) * 1000) : 0;
}

// When a running arena stops pairing, and how long is left at `now` (ms; 0 once closed);
// null for other events and before the start.
export function arenaClock(tournament, now) {
  if (!tournament || tournament.format !== 'ARENA' || !tournament.start_time) return null;
  const closes = Date.parse(tournament.start_time) + durationMs(tournament.duration);
  return { closes, left: Math.max(0, closes - now) };
}

// "12:05" (minutes and seconds), or "1:02:03" from an hour.
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// An arena sheet's games read back from their points: a win scores 2, a draw 1, and both
// double after two wins in a row (tournament.proto ARENA). [{points, result: 'win' | 'draw'
// | 'loss', doubled}] in order.
export function sheetGames(sheet) {
  let streak = 0;
  return (sheet || []).map((points) => {
    const factor = streak >= 2 ? 2 : 1;
    const result = points === 2 * factor ? 'win' : points === factor ? 'draw' : 'loss';
    streak = result === 'win' ? streak + 1 : 0;
    return { points, result, doubled: factor === 2 && result !== 'loss' };
  });
}

// An arena's games from its rounds (any order): those being played, and the decided ones,
// latest first, each {round, board, white, black, outcome, match}.
export function arenaGames(rounds, names) {
  const playing = [];
  const decided = [];
  const sorted = [...(rounds || [])].sort((a, b) => b.number - a.number);
  for (const round of sorted) {
    for (const p of round.pairings || []) {
      const game = (p.games || [])[0] || {};
      const item = {
        round: round.number,
        board: p.board,
        white: names.get(p.white) || String(p.white),
        black: names.get(p.black) || String(p.black),
        outcome: p.outcome || 'OUTCOME_UNSPECIFIED',
        match: game.match || '',
      };
      (item.outcome === 'OUTCOME_UNSPECIFIED' ? playing : decided).push(item);
    }
  }
  return { playing, decided };
}

// A league's standings as one table per division, top first: [{division, rows}]; one group
// (division 0) for other events.
export function divisionTables(standings) {
  const groups = [];
  for (const row of (standings && standings.rows) || []) {
    const division = row.division || 0;
    if (!groups.length || groups[groups.length - 1].division !== division) groups.push({ division, rows: [] });
    groups[groups.length - 1].rows.push(row);
  }
  return groups;
}

// A span of time in the largest whole unit that fits: "7 days", "36 hours", "90 minutes".
export function spanText(ms) {
  const minutes = Math.round(ms / 60000);
  const unit = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (minutes % 1440 === 0 && minutes > 0) return unit(minutes / 1440, 'day');
  if (minutes % 60 === 0 && minutes > 0) return unit(minutes / 60, 'hour');
  return unit(minutes, 'minute');
}
