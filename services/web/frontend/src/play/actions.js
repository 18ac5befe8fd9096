// Sorting a seat's legal actions (docs/notation.md) into what the page offers: actions that
// start with a tile ("6-4 left", "9-4 @0", "5-3 train 2", "6-4") belong to that hand tile and
// are labelled by the rest of their text ("left", "@0", "train 2", or "play" when the tile
// is the whole action); everything else ("draw", "pass", "bid 30", "trump 5", "muggins",
// "discard 6-4") is a button of its own. The service decides what is legal; this only groups.
import { actionText } from '../format.js';

const leadingTile = /^(\d+-\d+'?)(\s|$)/;

export function groupActions(legalActions) {
  const byTile = new Map();
  const other = [];
  for (const action of legalActions || []) {
    const text = actionText(action);
    const m = leadingTile.exec(text);
    if (m) {
      const rest = text.slice(m[1].length).trim();
      const list = byTile.get(m[1]) || [];
      list.push({ text, label: rest || 'play' });
      byTile.set(m[1], list);
    } else {
      other.push({ text, label: text });
    }
  }
  return { byTile, other };
}

// What a click on a hand tile does: play its only action, offer its several actions, or,
// when it has none, send the tile alone so the service says why it cannot be played.
export function tileClick(tile, byTile) {
  const actions = byTile.get(tile) || [];
  if (actions.length === 1) return { send: actions[0].text };
  if (actions.length > 1) return { select: tile };
  return { send: tile };
}
