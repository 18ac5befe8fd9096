// The seat's own tiles as buttons. Tiles with legal actions are marked; the selected one
// (a tile with several actions) is pressed.
import { Domino } from '../board/Domino.jsx';

export function Hand({ tiles, byTile, selected, onTile }) {
  if (tiles.length === 0) return <p class="muted" data-testid="hand">No tiles in hand.</p>;
  return (
    <ul class="hand" data-testid="hand">
      {tiles.map((tile) => {
        const moves = (byTile.get(tile) || []).length;
        return (
          <li key={tile}>
            <button
              type="button"
              class={`hand-tile${moves ? ' playable' : ''}${selected === tile ? ' selected' : ''}`}
              data-testid="hand-tile"
              data-tile={tile}
              data-playable={moves ? 'true' : 'false'}
              aria-pressed={selected === tile ? 'true' : 'false'}
              aria-label={`${tile}${moves ? `, ${moves} move${moves === 1 ? '' : 's'}` : ''}`}
              onClick={() => onTile(tile)}
            >
              <Domino tile={tile} vertical size={30} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function ActionButtons({ actions, onAction, testid = 'actions' }) {
  return (
    <div class="action-buttons" data-testid={testid}>
      {actions.map((action) => (
        <button type="button" key={action.text} data-testid="action-button" data-action={action.text} onClick={() => onAction(action.text)}>
          {action.label}
        </button>
      ))}
    </div>
  );
}
