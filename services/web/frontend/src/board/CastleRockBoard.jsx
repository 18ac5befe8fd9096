// Castle Rock: the row, numbered from 1 at the left as the actions count it ("take 2").
import { LineDomino } from './Domino.jsx';
import { tileKeys } from './tiles.js';

export function CastleRockBoard({ layout, size = 26 }) {
  const row = layout.row || [];
  if (row.length === 0) return <p class="muted">The row is empty.</p>;
  // Keyed by tile: a tile taken from the row leaves the others' elements (and dominoes) as
  // they are, only their numbers change.
  const keys = tileKeys(row);
  return (
    <ol class="tile-row castle-row">
      {row.map((tile, i) => (
        <li key={keys[i]} class="numbered-tile">
          <LineDomino tile={tile} size={size} />
          <span class="tile-label">{i + 1}</span>
        </li>
      ))}
    </ol>
  );
}
