// The end of a match: its result (ranks, winners, final scores) or, after an abort or with no
// result, what the last event says.
import { EventText } from './EventText.jsx';

export function ResultView({ view, own = -1 }) {
  if (!view || !view.terminal) return null;
  const result = view.result;
  if (!result) {
    return (
      <section class="result card" data-testid="result" data-outcome="over">
        <h3>Match over</h3>
        <EventText event={view.last_event} />
      </section>
    );
  }
  const winners = result.winners || [];
  const details = result.details && typeof result.details === 'object' ? result.details : {};
  const outcome = own < 0 ? 'over' : winners.includes(own) ? 'won' : 'lost';
  const title = own < 0 ? `Winner${winners.length > 1 ? 's' : ''}: seat ${winners.join(', ')}` : outcome === 'won' ? 'You won' : 'You lost';
  return (
    <section class={`result card ${outcome}`} data-testid="result" data-outcome={outcome}>
      <h3>{title}</h3>
      <ol class="ranks">
        {(result.ranks || [])
          .map((rank, seat) => ({ rank, seat }))
          .sort((a, b) => a.rank - b.rank || a.seat - b.seat)
          .map(({ rank, seat }) => (
            <li key={seat}>
              <span class="rank">#{rank}</span> seat {seat}
              {seat === own ? ' (you)' : ''}
              {result.player_ids && result.player_ids[seat] ? ` · ${result.player_ids[seat]}` : ''} — {(result.scores || [])[seat] ?? 0}
              {(result.forfeited_seats || []).includes(seat) && <span class="chip alert">forfeited</span>}
            </li>
          ))}
      </ol>
      {Object.keys(details).length > 0 && (
        <p class="muted result-details">
          {Object.entries(details)
            .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : value}`)
            .join(' · ')}
        </p>
      )}
    </section>
  );
}
