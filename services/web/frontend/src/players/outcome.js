// What one of a player's matches (matchmaking.proto `PlayerMatch`) came to for that player.
// Its `result` is set once execution has delivered it; until then the match is being played,
// or was aborted (the two look alike here: an aborted match never gets a result).

export function matchOutcome(playerMatch) {
  const result = playerMatch.result;
  if (!result) return { finished: false };
  const seat = Number(playerMatch.seat) || 0;
  const winners = result.winners || [];
  const ranks = result.ranks || [];
  const scores = result.scores || [];
  return {
    finished: true,
    won: winners.includes(seat),
    rank: ranks[seat] ?? null,
    score: scores[seat] ?? null,
    seats: Math.max(ranks.length, scores.length),
  };
}

// "48 %" for a predicted chance; '' when there was none (a solitaire).
export function chanceText(chance) {
  const c = Number(chance);
  if (!Number.isFinite(c) || c <= 0) return '';
  return `${Math.round(c * 100)} %`;
}
