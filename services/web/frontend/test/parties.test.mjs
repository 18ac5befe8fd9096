// A party's plain logic (src/parties/party.js): roles, the members list, which ticket to follow,
// invite codes as typed, and what is remembered per player.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  forgetParty,
  isMember,
  markTicketSeen,
  maxSeenTickets,
  meansGone,
  memberRows,
  normalizeInviteCode,
  partyKey,
  partyPath,
  partyRole,
  rememberParty,
  rememberedParty,
  seenTickets,
  ticketToFollow,
} from '../src/parties/party.js';

const party = {
  name: 'parties/p1',
  leader: 'players/ann',
  members: ['players/ann', 'players/bob'],
  invite_code: 'K7Q2M9XWPA',
  ticket: '',
};

// localStorage's interface over a Map; `broken` throws on every call, as private modes may.
function memoryStorage({ broken = false } = {}) {
  const items = new Map();
  const check = () => {
    if (broken) throw new Error('SecurityError');
  };
  return {
    items,
    getItem: (k) => (check(), items.has(k) ? items.get(k) : null),
    setItem: (k, v) => (check(), items.set(k, String(v))),
    removeItem: (k) => (check(), items.delete(k)),
  };
}

test('the leader, a member, and someone not in the party', () => {
  assert.equal(partyRole(party, 'ann'), 'leader');
  assert.equal(partyRole(party, 'bob'), 'member');
  assert.equal(partyRole(party, 'cid'), 'none');
  assert.equal(partyRole(null, 'ann'), 'none');
  // A leader no longer among the members (left mid-change) leads nothing here.
  assert.equal(partyRole({ ...party, members: ['players/bob'] }, 'ann'), 'none');
  assert.equal(isMember(party, 'bob'), true);
  assert.equal(isMember({ name: 'parties/p1' }, 'bob'), false);
});

test('members in the party\'s order, the leader and "you" marked', () => {
  assert.deepEqual(memberRows(party, 'bob'), [
    { id: 'ann', leader: true, you: false },
    { id: 'bob', leader: false, you: true },
  ]);
  assert.deepEqual(memberRows(null, 'bob'), []);
});

test('a party ticket is followed once', () => {
  assert.equal(ticketToFollow(party, []), '');
  const queued = { ...party, ticket: 'tickets/t1' };
  assert.equal(ticketToFollow(queued, []), 'tickets/t1');
  assert.equal(ticketToFollow(queued, ['tickets/t0', 'tickets/t1']), '');
  assert.equal(ticketToFollow(null, []), '');
});

test('invite codes as typed or pasted', () => {
  assert.equal(normalizeInviteCode(' k7q2m 9xwpa\n'), 'K7Q2M9XWPA');
  assert.equal(normalizeInviteCode('K7Q2-M9XW-PA'), 'K7Q2M9XWPA');
  assert.equal(normalizeInviteCode(undefined), '');
});

test('errors that mean the player is out of the party, and those worth a retry', () => {
  for (const code of ['NOT_FOUND', 'PERMISSION_DENIED', 'FAILED_PRECONDITION', 'INVALID_ARGUMENT']) {
    assert.equal(meansGone({ code }), true, code);
  }
  for (const code of ['UNAVAILABLE', 'INTERNAL', 'HTTP_502', 'UNAUTHENTICATED']) {
    assert.equal(meansGone({ code }), false, code);
  }
  assert.equal(meansGone(null), false);
});

test('the API path takes the id out of the name, escaped', () => {
  assert.equal(partyPath('parties/p1'), '/api/parties/p1');
  assert.equal(partyPath('parties/a b'), '/api/parties/a%20b');
});

test('the party is remembered per player and forgotten', () => {
  const storage = memoryStorage();
  assert.equal(rememberedParty(storage, 'ann'), '');
  rememberParty(storage, 'ann', 'parties/p1');
  assert.equal(storage.items.get(partyKey('ann')), 'parties/p1');
  assert.equal(rememberedParty(storage, 'ann'), 'parties/p1');
  assert.equal(rememberedParty(storage, 'bob'), '');
  // A bare id (written by hand, or by an older page) still names the party.
  storage.setItem(partyKey('bob'), 'p2');
  assert.equal(rememberedParty(storage, 'bob'), 'parties/p2');
  forgetParty(storage, 'ann');
  assert.equal(rememberedParty(storage, 'ann'), '');
});

test('followed tickets are remembered, newest kept, and storage may fail', () => {
  const storage = memoryStorage();
  markTicketSeen(storage, 'ann', 'tickets/t1');
  markTicketSeen(storage, 'ann', 'tickets/t2');
  markTicketSeen(storage, 'ann', 'tickets/t1');
  markTicketSeen(storage, 'ann', '');
  assert.deepEqual(seenTickets(storage, 'ann'), ['tickets/t2', 'tickets/t1']);
  assert.deepEqual(seenTickets(storage, 'bob'), []);
  for (let i = 0; i < maxSeenTickets + 5; i++) markTicketSeen(storage, 'ann', `tickets/n${i}`);
  const kept = seenTickets(storage, 'ann');
  assert.equal(kept.length, maxSeenTickets);
  assert.equal(kept.at(-1), `tickets/n${maxSeenTickets + 4}`);

  storage.setItem('boneyard.party-tickets.cid', '{not json');
  assert.deepEqual(seenTickets(storage, 'cid'), []);

  const broken = memoryStorage({ broken: true });
  rememberParty(broken, 'ann', 'parties/p1');
  markTicketSeen(broken, 'ann', 'tickets/t1');
  assert.equal(rememberedParty(broken, 'ann'), '');
  assert.deepEqual(seenTickets(broken, 'ann'), []);
  assert.equal(rememberedParty(null, 'ann'), '');
});
