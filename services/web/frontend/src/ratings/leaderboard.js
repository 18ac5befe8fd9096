// Leaderboard entries (ratings.proto `LeaderboardEntry`) as the rows the ratings page shows: a
// rated game's entry holds a `rating`, Castle Rock's (a solitaire, not rated) a `result`.

export function entryRow(entry) {
  const base = { rank: entry.rank, playerId: entry.player_id };
  if (entry.rating) {
    const r = entry.rating;
    return {
      ...base,
      kind: 'rating',
      ordinal: Number(r.ordinal) || 0,
      mu: Number(r.mu) || 0,
      sigma: Number(r.sigma) || 0,
      games: Number(r.games_played) || 0,
      provisional: r.provisional === true,
      updated: r.update_time || '',
    };
  }
  if (entry.result) {
    const r = entry.result;
    return {
      ...base,
      kind: 'result',
      tilesLeft: Number(r.tiles_left) || 0,
      pipsLeft: Number(r.pips_left) || 0,
      // int64: a string in protobuf JSON.
      seconds: (Number(r.duration_millis) || 0) / 1000,
      won: r.won === true,
      match: r.match || '',
      ended: r.end_time || '',
    };
  }
  return { ...base, kind: 'none' };
}

// The labels a row carries: "provisional" from the rating, "bot" from the player's account
// (`kinds`: player id -> PlayerAccount kind, as far as fetched).
export function rowLabels(row, kinds) {
  const labels = [];
  if (row.provisional) labels.push('provisional');
  if (String(kinds.get(row.playerId) || '').toUpperCase() === 'BOT') labels.push('bot');
  return labels;
}

// Runs `work(item)` for every item with at most `limit` at a time (the players' accounts for
// a page of the board: one request each, as the API has no batch read).
export async function eachLimited(items, limit, work) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
