// One MatchEvent in a line: "#12 seat 1 6-4 left" with its reason when it was not an ordinary
// play (a timeout, a forfeit, an operator's abort and its message).
import { actionText, enumName, enumText } from '../format.js';

export function eventParts(event) {
  const reason = enumName(event.reason);
  return {
    sequence: event.sequence,
    seat: event.seat === undefined || event.seat < 0 ? '' : `seat ${event.seat}`,
    action: actionText(event.action),
    reason: reason === 'PLAYED' ? '' : enumText(event.reason),
    message: event.message || '',
  };
}

export function EventText({ event }) {
  if (!event) return <span class="muted">no move yet</span>;
  const p = eventParts(event);
  return (
    <span class="event-text">
      <span class="seq">#{p.sequence}</span> {p.seat} <strong>{p.action}</strong>
      {p.reason && <span class="chip">{p.reason}</span>}
      {p.message && <span class="muted"> “{p.message}”</span>}
    </span>
  );
}
