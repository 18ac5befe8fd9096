// Mexican Train: the engine (centre double), then each seat's train and the Mexican train,
// with the marker (open to everyone) and an open double that must be closed.
// layout: engine, trains[{name, owner, tiles, end_pip, marker, open_double}], open_doubles,
// turn {must_follow_double, ...} (docs/rules/mexican_train.md).
import { Domino, LineDomino } from './Domino.jsx';
import { Facts } from './Facts.jsx';

export function TrainsBoard({ layout, size = 22 }) {
  const trains = layout.trains || [];
  const turn = layout.turn || {};
  return (
    <div class="board-trains">
      <div class="engine">
        <span class="tile-label">engine</span>
        {layout.engine ? <Domino tile={layout.engine} size={size} /> : <span class="muted">none</span>}
      </div>
      <ul class="trains">
        {trains.map((train) => (
          <li key={train.name} class={`train${train.open_double ? ' has-open-double' : ''}`} data-train={train.name}>
            <div class="train-head">
              <strong>{train.owner === null || train.owner === undefined ? 'Mexican' : `Seat ${train.owner}`}</strong>
              {train.marker && <span class="chip warn">marker</span>}
              {train.open_double && <span class="chip alert">open double</span>}
              <span class="muted">end {train.end_pip}</span>
            </div>
            <div class="tile-row">
              {(train.tiles || []).length === 0 ? (
                <span class="muted">not started</span>
              ) : (
                train.tiles.map((tile, i) => <LineDomino key={i} tile={tile} size={size} />)
              )}
            </div>
          </li>
        ))}
      </ul>
      <Facts
        items={[
          ['Open doubles', (layout.open_doubles || []).join(', ')],
          ['Must follow a double', turn.must_follow_double ? 'yes' : null],
          ['First-turn string', turn.first_turn_string ? 'yes' : null],
          ['Blocking', layout.blocking === null || layout.blocking === undefined ? null : JSON.stringify(layout.blocking)],
          ['Rounds', layout.rounds],
        ]}
      />
    </div>
  );
}
