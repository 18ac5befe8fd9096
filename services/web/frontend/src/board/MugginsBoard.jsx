// Muggins (All Fives): the line left to right, with the spinner's up and down arms drawn in
// its column once they open. layout: line, spinner, spinner_index, up, down, ends, count,
// target, unclaimed (docs/rules/muggins.md).
import { LineDomino } from './Domino.jsx';
import { Facts } from './Facts.jsx';
import { pure } from '../pure.js';
import { reversed, tileKeys } from './tiles.js';

// The parts below are `pure` and keyed by tile: a move lays one tile at one end, so only that
// end's part is drawn again (a tile laid at the left moves every cell one column, which
// changes the cells' style but not their dominoes).

// Drawn top to bottom, so the up arm's outer end comes first and each of its tiles is turned
// to show its inner pip at the bottom, against the spinner.
const Arm = pure(function Arm({ tiles, end, column, size }) {
  const up = end === 'up';
  const keys = tileKeys(tiles);
  const order = tiles.map((_, i) => (up ? tiles.length - 1 - i : i));
  return (
    <div class={`arm arm-${end}`} style={{ gridColumn: column, gridRow: up ? 1 : 3 }}>
      {order.map((i) => (
        <LineDomino key={keys[i]} tile={up ? reversed(tiles[i]) : tiles[i]} along="vertical" size={size} />
      ))}
    </div>
  );
});

const Cell = pure(function Cell({ tile, column, spinner, size }) {
  return (
    <div class={`cell${spinner ? ' spinner' : ''}`} style={{ gridColumn: column, gridRow: 2 }}>
      <LineDomino tile={tile} size={size} />
    </div>
  );
});

export function MugginsBoard({ layout, size = 26 }) {
  const line = layout.line || [];
  const keys = tileKeys(line);
  const spinner = layout.spinner_index ?? -1;
  const up = layout.up || [];
  const down = layout.down || [];
  const ends = layout.ends || {};
  const endText = ['left', 'right', 'up', 'down']
    .filter((end) => ends[end] && ends[end].pip !== null && ends[end].pip !== undefined)
    .map((end) => `${end} ${ends[end].pip}${ends[end].double ? ' (double)' : ''}`)
    .join(', ');
  return (
    <div class="board-muggins">
      {line.length === 0 ? (
        <p class="muted">No tile on the table yet.</p>
      ) : (
        <div class="muggins-scroll">
          <div class="muggins-grid" style={{ gridTemplateColumns: `repeat(${line.length}, auto)` }}>
            {spinner >= 0 && up.length > 0 && <Arm tiles={up} end="up" column={spinner + 1} size={size} />}
            {line.map((tile, i) => (
              <Cell key={keys[i]} tile={tile} column={i + 1} spinner={i === spinner} size={size} />
            ))}
            {spinner >= 0 && down.length > 0 && <Arm tiles={down} end="down" column={spinner + 1} size={size} />}
          </div>
        </div>
      )}
      <Facts
        items={[
          ['Count', layout.count],
          ['Open ends', endText],
          ['Spinner', layout.spinner],
          ['Target', layout.target],
          ['Unclaimed', layout.unclaimed ? JSON.stringify(layout.unclaimed) : null],
        ]}
      />
    </div>
  );
}
