// A party's plain logic, apart from the page: who leads it, who is in it, which of its tickets
// the page should follow, and what the browser remembers about it between visits.
//
// The page remembers two things per signed-in player in localStorage:
//   - boneyard.party.<player_id>: the party's name ("parties/ID"), so a reload goes on
//     following it;
//   - boneyard.party-tickets.<player_id>: the party tickets already followed, so a ticket the
//     party still names after its match (or after coming back to the lobby) does not send the
//     player into that match again.
import { resourceId } from '../format.js';

// Enough to cover any tickets a party can still name; older ones are dropped first.
export const maxSeenTickets = 20;

export const partyKey = (playerId) => `boneyard.party.${playerId}`;
export const seenTicketsKey = (playerId) => `boneyard.party-tickets.${playerId}`;

// "parties/ID" -> the API path of that party.
export function partyPath(name) {
  return `/api/parties/${encodeURIComponent(resourceId(name))}`;
}

// What a person types or pastes: "k7q2m 9xwpa", " K7Q2-M9XWPA " -> "K7Q2M9XWPA". Codes are
// upper-case letters and digits, so spaces, dashes and case carry nothing.
export function normalizeInviteCode(text) {
  return String(text ?? '').replace(/[\s-]+/g, '').toUpperCase();
}

// Members are "players/ID"; the session knows the bare id.
export function isMember(party, playerId) {
  return Boolean(party) && (party.members || []).some((m) => resourceId(m) === playerId);
}

// 'leader', 'member', or 'none' (no party, or one the player is not in).
export function partyRole(party, playerId) {
  if (!isMember(party, playerId)) return 'none';
  return resourceId(party.leader) === playerId ? 'leader' : 'member';
}

// The members list as shown, in the party's order (the leader first, then by joining).
export function memberRows(party, playerId) {
  const leader = resourceId(party?.leader);
  return (party?.members || []).map((name) => {
    const id = resourceId(name);
    return { id, leader: id === leader, you: id === playerId };
  });
}

// The party's ticket when the page has not followed it yet, else ''.
export function ticketToFollow(party, seen) {
  const ticket = (party && party.ticket) || '';
  return ticket && !seen.includes(ticket) ? ticket : '';
}

// Whether an error about the party means the player is no longer in it (left elsewhere, the
// party ended, a stale id), as opposed to a failure on the way that a retry may get past.
export function meansGone(error) {
  return ['NOT_FOUND', 'PERMISSION_DENIED', 'FAILED_PRECONDITION', 'INVALID_ARGUMENT'].includes(error && error.code);
}

// ---- what the browser remembers ----
// `storage` is localStorage or anything with its getItem/setItem/removeItem (tests pass a
// Map-backed one); null when the browser has none. Storage can throw (private mode, quota):
// then the page still works, it just forgets on reload.

export function browserStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function read(storage, key) {
  try {
    return (storage && storage.getItem(key)) || '';
  } catch {
    return '';
  }
}

function write(storage, key, value) {
  try {
    if (!storage) return;
    if (value) storage.setItem(key, value);
    else storage.removeItem(key);
  } catch {
    // Not remembered; see above.
  }
}

// The remembered party's name, "parties/ID", or ''.
export function rememberedParty(storage, playerId) {
  const value = read(storage, partyKey(playerId));
  if (!value) return '';
  return value.startsWith('parties/') ? value : `parties/${value}`;
}

export function rememberParty(storage, playerId, name) {
  write(storage, partyKey(playerId), name);
}

export function forgetParty(storage, playerId) {
  write(storage, partyKey(playerId), '');
}

export function seenTickets(storage, playerId) {
  try {
    const list = JSON.parse(read(storage, seenTicketsKey(playerId)) || '[]');
    return Array.isArray(list) ? list.filter((t) => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function markTicketSeen(storage, playerId, ticket) {
  if (!ticket) return;
  const list = seenTickets(storage, playerId).filter((t) => t !== ticket);
  list.push(ticket);
  write(storage, seenTicketsKey(playerId), JSON.stringify(list.slice(-maxSeenTickets)));
}
