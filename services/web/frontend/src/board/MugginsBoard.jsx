// Muggins (All Fives): the line left to right, with the spinner's up and down arms drawn in
// its column once they open. layout: line, spinner, spinner_index, up, down, ends, count,
// target, unclaimed (docs/rules/muggins.md).
import { LineDomino } from './Domino.jsx';
import { Facts } from './Facts.jsx';
import { reversed } from './tiles.js';

export function MugginsBoard({ layout, size = 26 }) {
  const line = layout.line || [];
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
            {spinner >= 0 && up.length > 0 && (
              // Drawn top to bottom, so the arm's outer end comes first and each tile is
              // turned to show its inner pip at the bottom, against the spinner.
              <div class="arm arm-up" style={{ gridColumn: spinner + 1, gridRow: 1 }}>
                {[...up].reverse().map((tile, i) => (
                  <LineDomino key={i} tile={reversed(tile)} along="vertical" size={size} />
                ))}
              </div>
            )}
            {line.map((tile, i) => (
              <div key={i} class={`cell${i === spinner ? ' spinner' : ''}`} style={{ gridColumn: i + 1, gridRow: 2 }}>
                <LineDomino tile={tile} size={size} />
              </div>
            ))}
            {spinner >= 0 && down.length > 0 && (
              <div class="arm arm-down" style={{ gridColumn: spinner + 1, gridRow: 3 }}>
                {down.map((tile, i) => (
                  <LineDomino key={i} tile={tile} along="vertical" size={size} />
                ))}
              </div>
            )}
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
