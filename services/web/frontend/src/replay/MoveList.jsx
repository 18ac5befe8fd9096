// The moves of a replay as buttons, one per step after the deal; the current one is marked and
// kept in view inside the list (only the list scrolls, never the page, so stepping with the
// keyboard does not pull the board away). Only the current move is a tab stop: the arrow
// keys move through the rest, so Tab does not have to cross hundreds of buttons.
import { useLayoutEffect, useRef } from 'preact/hooks';

export function MoveList({ moves, index, onJump }) {
  const list = useRef(null);
  useLayoutEffect(() => {
    const box = list.current;
    const current = box && box.querySelector('[aria-current="step"]');
    if (!current) {
      if (box && index === 0) box.scrollTop = 0;
      return;
    }
    // Focus follows the current move when it was in the list (the keys step from there too).
    if (box.contains(document.activeElement) && document.activeElement !== current) current.focus({ preventScroll: true });
    // The list is position: relative, so offsetTop counts from its top.
    const top = current.offsetTop;
    if (top < box.scrollTop) box.scrollTop = top - 4;
    else if (top + current.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + current.offsetHeight - box.clientHeight + 4;
  }, [index]);

  return (
    <ol class="move-list" data-testid="move-list" ref={list}>
      <li>
        <button type="button" class="move" data-testid="move" data-index="0" aria-current={index === 0 ? 'step' : undefined} tabIndex={index === 0 ? 0 : -1} onClick={() => onJump(0)}>
          <span class="seq">0</span> the deal
        </button>
      </li>
      {moves.map((move) => (
        <li key={move.index}>
          {move.roundStart && <div class="round-head">Round {move.round + 1}</div>}
          <button type="button" class="move" data-testid="move" data-index={move.index} aria-current={index === move.index ? 'step' : undefined} tabIndex={index === move.index ? 0 : -1} onClick={() => onJump(move.index)}>
            <span class="seq">{move.index}</span> <span class="muted">seat {move.seat}</span> <strong>{move.action}</strong>
          </button>
        </li>
      ))}
    </ol>
  );
}
