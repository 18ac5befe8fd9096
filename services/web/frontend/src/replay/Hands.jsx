// Every seat's hand at one step of a replay: a finished match's record is public, so nothing
// is hidden here (docs/web.md). The seat to play is marked.
import { Domino } from '../board/Domino.jsx';
import { Link } from '../router.js';

export function SeatName({ seat, labels }) {
  const entry = labels[seat];
  if (!entry || !entry.label) return <span>seat {seat}</span>;
  return (
    <span>
      seat {seat} ·{' '}
      {entry.player ? <Link href={`/players/${encodeURIComponent(entry.player)}`}>{entry.label}</Link> : <span class="muted">bot {entry.label}</span>}
    </span>
  );
}

export function Hands({ step, labels }) {
  const hands = step.hands || [];
  return (
    <section class="card replay-hands" data-testid="replay-hands">
      <h2>Hands</h2>
      <ul class="hands">
        {hands.map((hand, seat) => {
          const toPlay = !step.terminal && seat === step.current_seat;
          const tiles = hand || [];
          return (
            <li key={seat} class={`seat-hand${toPlay ? ' to-play' : ''}`} data-testid="replay-hand" data-seat={seat} data-tiles={tiles.length}>
              <div class="seat-hand-head">
                {toPlay && <span class="turn-dot" title="to play" aria-label="to play" />}
                <SeatName seat={seat} labels={labels} />
                {labels[seat] && labels[seat].team >= 0 && <span class="chip">team {labels[seat].team + 1}</span>}
                <span class="muted">
                  {tiles.length} tile{tiles.length === 1 ? '' : 's'}
                </span>
              </div>
              {tiles.length > 0 ? (
                <ul class="tile-row" aria-label={`seat ${seat}'s tiles`}>
                  {tiles.map((tile) => (
                    <li key={tile}>
                      <Domino tile={tile} vertical size={22} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">empty</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
