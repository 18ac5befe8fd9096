// Chickenfoot: every tile has an id in the order placed ("@0" the centre double) and hangs
// on an earlier one ("@7 3-1 on @3"); actions name the id to play on ("9-4 @0"). The table
// is drawn as a tree: a chain of single tiles runs in one row, and where several tiles hang
// on one (the centre, a chickenfoot) each branch starts its own indented row.
// layout: centre, tiles, open_ends [{id, pip}], foot {id, toes_needed}.
import { LineDomino } from './Domino.jsx';
import { Facts } from './Facts.jsx';
import { pure } from '../pure.js';

const placed = /^@(\d+)\s+(\S+)(?:\s+on\s+@(\d+))?$/;

export function parsePlaced(tiles) {
  const nodes = new Map();
  const children = new Map();
  for (const text of tiles) {
    const m = placed.exec(text);
    if (!m) continue;
    const id = `@${m[1]}`;
    const parent = m[3] === undefined ? null : `@${m[3]}`;
    nodes.set(id, { id, tile: m[2], parent });
    if (parent) children.set(parent, [...(children.get(parent) || []), id]);
  }
  return { nodes, children };
}

// The tree is parsed afresh from every view, so a placed tile gets its id and tile, not its
// (new) node, and stays skipped while neither it nor its being an open end changes.
const Placed = pure(function Placed({ id, tile, open, size }) {
  return (
    <span class={`placed${open ? ' open-end' : ''}`} data-id={id}>
      <LineDomino tile={tile} size={size} />
      <span class="tile-label">{id}</span>
    </span>
  );
});

function Branch({ start, tree, open, size }) {
  const chain = [start];
  let last = start;
  while ((tree.children.get(last) || []).length === 1) {
    last = tree.children.get(last)[0];
    chain.push(last);
  }
  const branches = tree.children.get(last) || [];
  return (
    <div class="cf-branch">
      <div class="tile-row">
        {chain.map((id) => (
          <Placed key={id} id={id} tile={tree.nodes.get(id).tile} open={open.has(id)} size={size} />
        ))}
      </div>
      {branches.length > 0 && (
        <div class="cf-branches">
          {branches.map((id) => (
            <Branch key={id} start={id} tree={tree} open={open} size={size} />
          ))}
        </div>
      )}
    </div>
  );
}

export function ChickenfootBoard({ layout, size = 22 }) {
  const tree = parsePlaced(layout.tiles || []);
  const open = new Set((layout.open_ends || []).map((end) => end.id));
  const root = [...tree.nodes.values()].find((node) => node.parent === null);
  const foot = layout.foot;
  return (
    <div class="board-chickenfoot">
      {root ? <Branch start={root.id} tree={tree} open={open} size={size} /> : <p class="muted">No centre double yet.</p>}
      <Facts
        items={[
          ['Open ends', (layout.open_ends || []).map((end) => `${end.id}: ${end.pip}`).join(', ')],
          ['Foot', foot ? `on ${foot.id}, ${foot.toes_needed} more toe${foot.toes_needed === 1 ? '' : 's'}` : null],
          ['Centre', layout.centre],
          ['Rounds', layout.rounds],
        ]}
      />
    </div>
  );
}
