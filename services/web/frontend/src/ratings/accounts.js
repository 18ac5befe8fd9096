// Player accounts (GET /api/players/{id}), remembered for the page's lifetime: the leaderboard
// needs each shown player's kind for its "bot" label and the API has no batch read, so each
// account is asked for once. An account's kind never changes (matchmaking.proto). A player
// with ratings but no account (NOT_FOUND: e.g. the load generator's seats) is remembered as
// null; other failures are not remembered, so a later page may try again.
import { get } from '../api.js';

const known = new Map();

export function playerAccount(id) {
  if (!known.has(id)) {
    const pending = get(`/api/players/${encodeURIComponent(id)}`).catch((e) => {
      if (e.status === 404) return null;
      known.delete(id);
      throw e;
    });
    known.set(id, pending);
  }
  return known.get(id);
}
