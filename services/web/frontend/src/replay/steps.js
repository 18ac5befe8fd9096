// Moving through a replay (docs/web.md: `steps[0]` is the deal, `steps[i]` the position after
// the i-th action) and the list of its moves.
import { actionText } from '../format.js';

// The step shown for a `?step=` value: a whole number within the replay; anything else is the
// first step (a link with a bad number still opens the match).
export function clampStep(value, count) {
  if (count <= 0) return 0;
  const n = Number.parseInt(String(value ?? ''), 10);
  if (!Number.isFinite(n)) return 0;
  return Math.min(Math.max(n, 0), count - 1);
}

// The step a key moves to from `index`, or null for a key the replay does not use.
// ← → one move, PageUp / PageDown ten, Home / End the deal and the end.
const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };

export function stepForKey(key, index, count) {
  if (count <= 0) return null;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key in moves) return clampStep(index + moves[key], count);
  return null;
}

// [{index, round, seat, action, roundStart}] for steps 1..n. A move belongs to the round it
// was played in, the round of the step before it: the move that ends a round leads to a step
// already in the next round (the new deal). `roundStart` marks the first move of every round
// after the first, where the list shows a heading.
export function moveList(steps) {
  const list = [];
  const roundOf = (i) => Number(steps[i].round) || 0;
  for (let i = 1; i < (steps || []).length; i++) {
    const step = steps[i];
    const round = roundOf(i - 1);
    list.push({ index: i, round, seat: step.seat, action: actionText(step.action), roundStart: i > 1 && round !== roundOf(i - 2) });
  }
  return list;
}

// Seat labels of a record (`Record.seats`: a player id, or a built-in bot's kind). The record
// does not say which, so the labels that are the built-in bots' kinds are not linked to a
// player page.
const botKinds = new Set(['random', 'greedy', 'heuristic']);

// Each entry also has the seat's `team` (its index in `Record.teams`), -1 without teams.
export function seatLabels(record) {
  const teams = record.teams || [];
  const teamOf = (seat) => teams.findIndex((team) => (team.seats || []).includes(seat));
  return (record.seats || []).map((label, seat) => ({ label, player: label && !botKinds.has(label) ? label : '', team: teamOf(seat) }));
}

// One line for a record's result: who won and the final scores; for a solitaire (one seat,
// whose `winners` always holds it) whether the game counted it won, from the `won` detail.
export function resultSummary(result) {
  if (!result) return 'aborted: no result';
  const scores = result.scores || [];
  const details = result.details && typeof result.details === 'object' ? result.details : {};
  if (scores.length === 1 && typeof details.won === 'boolean') {
    const n = details.tiles_left;
    const left = n === undefined ? '' : ` · ${n} tile${n === 1 ? '' : 's'} left`;
    return `${details.won ? 'won' : 'not won'}${left}`;
  }
  const winners = result.winners || [];
  const who = winners.length === 0 ? 'no winner' : `won by seat ${winners.join(', ')}`;
  return `${who} · ${scores.join(' – ')}`;
}
