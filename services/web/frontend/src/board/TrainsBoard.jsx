// Mexican Train: the engine (centre double), then each seat's train and the Mexican train,
// with the marker (open to everyone) and an open double that must be closed.
// layout: engine, trains[{name, owner, tiles, end_pip, marker, open_double}], open_doubles,
// turn {must_follow_double, ...} (docs/rules/mexican_train.md).
import { Domino, LineDomino } from './Domino.jsx';
import { Facts } from './Facts.jsx';
import { pure } from '../pure.js';
import { tileKeys } from './tiles.js';

// One move lays one tile on one train: the train's fields are passed one by one, not as the
// view's (always new) object, so the trains that did not change are skipped.
const Train = pure(function Train({ name, owner, tiles, endPip, marker, openDouble, size }) {
  const keys = tileKeys(tiles);
  return (
    <li class={`train${openDouble ? ' has-open-double' : ''}`} data-train={name}>
      <div class="train-head">
        <strong>{owner === null || owner === undefined ? 'Mexican' : `Seat ${owner}`}</strong>
        {marker && <span class="chip warn">marker</span>}
        {openDouble && <span class="chip alert">open double</span>}
        <span class="muted">end {endPip}</span>
      </div>
      <div class="tile-row">
        {tiles.length === 0 ? (
          <span class="muted">not started</span>
        ) : (
          tiles.map((tile, i) => <LineDomino key={keys[i]} tile={tile} size={size} />)
        )}
      </div>
    </li>
  );
});

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
          <Train
            key={train.name}
            name={train.name}
            owner={train.owner}
            tiles={train.tiles || []}
            endPip={train.end_pip}
            marker={train.marker}
            openDouble={train.open_double}
            size={size}
          />
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
