// One domino as inline SVG: ivory face, black pips, a bar between the halves. Halves of 0..9
// are drawn as pips on a 3x3 grid; 10..18 (double-12 to double-18 sets) as a number, which
// reads better than crowded pips at this size.
//
// Drawing one takes a dozen or more SVG elements and a live board holds up to ~90 of them, of
// which one changes per move: Domino and LineDomino are `pure`, skipped while their props stay.
import { pure } from '../pure.js';
import { parseTile } from './tiles.js';

const S = 40; // one half's side in SVG units
const grid = [10, 20, 30];

// Pip cells as [column, row] on the 3x3 grid, per count.
const layouts = [
  [],
  [[1, 1]],
  [[0, 0], [2, 2]],
  [[0, 0], [1, 1], [2, 2]],
  [[0, 0], [2, 0], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
];

// Cells are given for an upright half; a half lying sideways turns its pattern with it, so
// a six reads as two rows of three on a horizontal tile, as on a real one.
function Half({ pips, x, y, sideways }) {
  if (pips > 9) {
    return (
      <text x={x + S / 2} y={y + S / 2} class="pip-number" text-anchor="middle" dominant-baseline="central">
        {pips}
      </text>
    );
  }
  return layouts[pips].map(([c, r]) => (
    <circle key={`${c}${r}`} cx={x + grid[sideways ? r : c]} cy={y + grid[sideways ? 2 - c : r]} r="3.7" class="pip" />
  ));
}

// `tile`: "6-4" or "6-4'"; `vertical`: first half on top instead of on the left; `size`: the
// short side in CSS pixels.
export const Domino = pure(function Domino({ tile, vertical = false, size = 32, faded = false }) {
  const t = parseTile(tile);
  if (!t) return <span class="tile-text">{tile}</span>;
  const w = vertical ? S : 2 * S;
  const h = vertical ? 2 * S : S;
  const second = t.second ? ' (second set)' : '';
  return (
    <svg
      class={`domino${faded ? ' faded' : ''}`}
      viewBox={`-1 -1 ${w + 2} ${h + 2}`}
      width={(vertical ? size : 2 * size) + 2 * (size / S)}
      height={(vertical ? 2 * size : size) + 2 * (size / S)}
      role="img"
      aria-label={`${tile}${second}`}
    >
      <title>{`${tile}${second}`}</title>
      <rect x="0" y="0" width={w} height={h} rx="6" class="face" />
      {vertical ? (
        <line x1="6" y1={S} x2={S - 6} y2={S} class="bar" />
      ) : (
        <line x1={S} y1="6" x2={S} y2={S - 6} class="bar" />
      )}
      <Half pips={t.a} x={0} y={0} sideways={!vertical} />
      <Half pips={t.b} x={vertical ? 0 : S} y={vertical ? S : 0} sideways={!vertical} />
      {t.second && <circle cx={w - 5} cy="5" r="2.5" class="second-set" />}
    </svg>
  );
});

// A tile lying in a line that runs across (horizontal): doubles stand across it.
export const LineDomino = pure(function LineDomino({ tile, size, along = 'horizontal' }) {
  const t = parseTile(tile);
  const across = t && t.double;
  const vertical = along === 'horizontal' ? across : !across;
  return <Domino tile={tile} vertical={vertical} size={size} />;
});

// A face-down tile, for counts of hidden tiles.
export function TileBack({ size = 12 }) {
  return (
    <svg class="domino back" viewBox="0 0 20 40" width={size} height={2 * size} aria-hidden="true">
      <rect x="0.5" y="0.5" width="19" height="39" rx="3" />
    </svg>
  );
}
