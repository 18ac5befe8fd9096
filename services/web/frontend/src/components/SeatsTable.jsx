// Per-seat numbers of a view: score, tiles in hand, whose turn; `names` labels the seats
// (player ids for an operator, "you" for a player) and `own` marks the viewer's seat.
export function SeatsTable({ view, names = [], own = -1 }) {
  const counts = view.hand_counts || [];
  const scores = view.scores || [];
  const seats = Math.max(counts.length, scores.length);
  return (
    <table class="seats" data-testid="scores">
      <thead>
        <tr>
          <th>Seat</th>
          <th>Score</th>
          <th>Tiles in hand</th>
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: seats }, (_, seat) => (
          <tr
            key={seat}
            class={`${seat === view.current_seat ? 'to-play' : ''}${seat === own ? ' own' : ''}`}
            data-seat={seat}
          >
            <td>
              {seat === view.current_seat && <span class="turn-dot" title="to play" aria-label="to play" />}
              {seat}
              {names[seat] ? ` · ${names[seat]}` : ''}
              {seat === own ? ' (you)' : ''}
            </td>
            <td data-testid="score">{scores[seat] ?? 0}</td>
            <td data-testid="hand-count">{counts[seat] ?? 0}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
