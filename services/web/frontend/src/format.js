// Small formatting helpers shared by the pages. Views arrive as protobuf JSON (docs/web.md),
// where an Action is {"text": "..."} and enums are names; the CLI's JSON writes an action as a
// plain string and enums in lower case. Both are accepted so the pages can be tried on either.

export function actionText(action) {
  if (action == null) return '';
  if (typeof action === 'string') return action;
  return action.text || '';
}

// "TIMEOUT_AUTO_PLAY" or "timeout_auto_play" -> "timeout auto play".
export function enumText(value) {
  return String(value ?? '').toLowerCase().replace(/_/g, ' ');
}

export function enumName(value) {
  return String(value ?? '').toUpperCase();
}

// "tickets/abc" -> "abc"; the same for matches/ and queues/.
export function resourceId(name) {
  const text = String(name ?? '');
  return text.slice(text.indexOf('/') + 1);
}

const gameNames = {
  muggins: 'Muggins',
  castle_rock: 'Castle Rock',
  forty_two: 'Forty-Two',
  eighty_four: 'Eighty-Four',
  moon: 'Moon',
  mexican_train: 'Mexican Train',
  chickenfoot: 'Chickenfoot',
};

export const knownGames = Object.keys(gameNames);

export function gameName(game) {
  return gameNames[game] || enumText(game);
}

export function formatTime(timestamp) {
  if (!timestamp) return '';
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return String(timestamp);
  return date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

// Seconds -> "4.2 s", "3 min 5 s", "1 h 2 min".
export function formatSeconds(seconds) {
  const s = Number(seconds) || 0;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function formatNumber(value, digits = 0) {
  const n = Number(value) || 0;
  return n.toLocaleString(undefined, { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

// A Match's seat: {"player": {"player_id": "alice"}} or {"bot": {"kind": "random"}}; the CLI
// writes {"player": "alice"}.
export function seatText(seat) {
  if (!seat) return '?';
  if (seat.player) return typeof seat.player === 'string' ? seat.player : seat.player.player_id;
  if (seat.bot) return `bot: ${typeof seat.bot === 'string' ? seat.bot : seat.bot.kind}`;
  return '?';
}
