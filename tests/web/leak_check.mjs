// The leak check for a player's page: given everything the browser received (server-sent
// events and JSON responses) and the finished match's record (public once it is over), no
// payload may name a tile that was hidden from the seat at that moment — another seat's tile
// not yet played, or a tile still in the boneyard — and every seat view's hand must be exactly
// the seat's own tiles at its sequence. The hidden sets are rebuilt from the record's deals and
// actions (a `draw` takes the boneyard's next tile), independently of the services' code.
import assert from 'node:assert/strict';

// Tiles as the notation writes them ("6-4", "6-4'"), not inside a longer word, number or date.
const TILE = /(?<![\w-])(\d{1,2})-(\d{1,2})('?)(?![\w-])/g;

function canonical(high, low, copy) {
  const [a, b] = [Number(high), Number(low)];
  return `${Math.max(a, b)}-${Math.min(a, b)}${copy}`;
}

export function tilesIn(text) {
  const out = new Set();
  for (const m of text.matchAll(TILE)) out.add(canonical(m[1], m[2], m[3]));
  return out;
}

// Who holds what after each action of the record, by `${round}:${q}` for the global sequence q
// (q actions played): a round's last action and the next round's deal share a q.
export function replayHoldings(record) {
  const positions = new Map();
  let q = 0;
  record.rounds.forEach((round, r) => {
    const hands = round.deal.hands.map((h) => new Set((h.tiles || []).map((t) => [...tilesIn(t)][0])));
    const boneyard = (round.deal.boneyard || []).map((t) => [...tilesIn(t)][0]);
    let next = 0;
    const snapshot = () => ({
      hands: hands.map((h) => new Set(h)),
      boneyard: new Set(boneyard.slice(next)),
    });
    positions.set(`${r}:${q}`, snapshot());
    for (const action of round.actions || []) {
      const seat = action.seat ?? 0;
      if (action.action.trim() === 'draw') {
        hands[seat].add(boneyard[next++]);
      } else {
        for (const t of tilesIn(action.action)) hands[seat].delete(t);
      }
      q++;
      positions.set(`${r}:${q}`, snapshot());
    }
  });
  return positions;
}

// Throws on a leak; returns how many seat views and other payloads were checked.
export function checkSeatPayloads(received, record, seat) {
  const positions = replayHoldings(record);
  const actions = record.rounds.flatMap((round) => round.actions || []);
  // What a payload that is not a view (a ticket, an error naming a tile) may name: tiles the
  // seat held at some moment, and tiles played.
  const allowed = new Set();
  for (const p of positions.values()) p.hands[seat].forEach((t) => allowed.add(t));
  for (const round of record.rounds) {
    for (const a of round.actions || []) tilesIn(a.action).forEach((t) => allowed.add(t));
  }
  let views = 0;
  let others = 0;
  for (const item of received) {
    let payload;
    try {
      payload = JSON.parse(item.data);
    } catch {
      continue;
    }
    const isView = payload && typeof payload === 'object' && Array.isArray(payload.hand)
      && 'sequence' in payload;
    const named = tilesIn(item.data);
    if (!isView) {
      const leaked = [...named].filter((t) => !allowed.has(t));
      assert.deepEqual(leaked, [], `a payload names hidden tiles: ${item.data.slice(0, 300)}`);
      others++;
      continue;
    }
    assert.equal(payload.seat, seat, 'a view of another seat reached the page');
    const q = Number(payload.sequence);
    const at = positions.get(`${payload.round}:${q}`);
    assert.ok(at, `the record has no round ${payload.round} at sequence ${q}`);
    const hidden = new Set(at.boneyard);
    at.hands.forEach((h, s) => { if (s !== seat) h.forEach((t) => hidden.add(t)); });
    // The last event is the action numbered q, public once played, even when it ended the
    // round before this one (its tile may be dealt again, hidden, in this round): it must be
    // exactly the record's action, and the rest of the view is checked without it.
    const { last_event: lastEvent, ...rest } = payload;
    if (lastEvent && lastEvent.action) {
      assert.equal(lastEvent.action.text ?? lastEvent.action, actions[q - 1]?.action,
        `the last event at sequence ${q}`);
    }
    const leaked = [...tilesIn(JSON.stringify(rest))].filter((t) => hidden.has(t));
    assert.deepEqual(leaked, [], `view at sequence ${q} names hidden tiles ${leaked}: ${item.data}`);
    const hand = new Set(payload.hand.map((t) => [...tilesIn(t)][0]));
    assert.deepEqual([...hand].sort(), [...at.hands[seat]].sort(),
      `the view's hand at sequence ${q} is not the seat's own`);
    views++;
  }
  return { views, others };
}
