// Tile notation (docs/notation.md): "6-4", high pip first in hands and actions, pips 0..18, and
// a trailing ' for the second set's copy ("6-4'"). Tiles laid on a board are written in the
// direction they were laid ("2-4" then "4-4"), so the first pip is the one nearer the start.

const tilePattern = /^(\d{1,2})-(\d{1,2})('?)$/;

// Returns {a, b, second, double} or null when the text is not a tile.
export function parseTile(text) {
  const m = tilePattern.exec(String(text ?? '').trim());
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (a > 18 || b > 18) return null;
  return { a, b, second: m[3] === "'", double: a === b };
}

export function isTile(text) {
  return parseTile(text) !== null;
}

// A tile written the other way round ("3-4" -> "4-3"), keeping the second-set mark.
export function reversed(text) {
  const t = parseTile(text);
  return t ? `${t.b}-${t.a}${t.second ? "'" : ''}` : text;
}

// Keys for a list of tiles drawn in order: the tile itself, so that a tile keeps its element
// when others are laid before it (a Muggins line growing at the left, a Castle Rock row
// losing a tile). A repeated tile, which no real layout has, gets "#2", "#3" to stay unique.
export function tileKeys(tiles) {
  const seen = new Map();
  return tiles.map((tile) => {
    const n = (seen.get(tile) || 0) + 1;
    seen.set(tile, n);
    return n === 1 ? String(tile) : `${tile}#${n}`;
  });
}
