// The fallback for a game (or a layout shape) no board knows: every tile found anywhere in the
// layout, labelled with where it was found, and the raw layout to read the rest.
import { Domino } from './Domino.jsx';
import { isTile, tileKeys } from './tiles.js';

const tileToken = /\d{1,2}-\d{1,2}'?/g;

// [{path, tiles}] for every string in `value` holding tiles ("6-4", "@3 0-3 on @0").
export function findTiles(value, path = 'layout', found = []) {
  if (typeof value === 'string') {
    const tiles = (value.match(tileToken) || []).filter(isTile);
    if (tiles.length > 0) found.push({ path, tiles });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findTiles(item, `${path}[${i}]`, found));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) findTiles(item, `${path}.${key}`, found);
  }
  return found;
}

export function GenericBoard({ layout, size = 22 }) {
  const found = findTiles(layout);
  return (
    <div class="board-generic">
      {found.length === 0 ? (
        <p class="muted">No tiles on the table.</p>
      ) : (
        <ul class="generic-tiles">
          {found.map(({ path, tiles }) => {
            const keys = tileKeys(tiles);
            return (
              <li key={path} class="placed">
                <span class="tile-row">
                  {tiles.map((tile, i) => (
                    <Domino key={keys[i]} tile={tile} size={size} />
                  ))}
                </span>
                <span class="tile-label">{path}</span>
              </li>
            );
          })}
        </ul>
      )}
      <details>
        <summary>Layout JSON</summary>
        <pre>{JSON.stringify(layout, null, 2)}</pre>
      </details>
    </div>
  );
}
