// One match, for an operator: the public view drawn live (WatchMatch through
// /api/matches/{id}/events), the events seen since the page opened, and abort with a reason.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { Board } from '../board/Board.jsx';
import { pure } from '../pure.js';
import { Clock } from '../components/Clock.jsx';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { useSubmit } from '../components/useSubmit.js';
import { eventParts, EventText } from '../components/EventText.jsx';
import { LiveStatus } from '../components/LiveStatus.jsx';
import { ResultView } from '../components/ResultView.jsx';
import { SeatsTable } from '../components/SeatsTable.jsx';
import { useEventStream } from '../events.js';
import { useRenderTiming } from '../render-timing.js';
import { enumName, gameName, seatText } from '../format.js';
import { Link } from '../router.js';
import { appendEvent, newer } from '../views.js';

// The log keeps each event's object as received (appendEvent), so an entry is drawn once and
// skipped afterwards: with hundreds of entries that is most of a live update's work.
const LoggedEvent = pure(function LoggedEvent({ event }) {
  const p = eventParts(event);
  return (
    <li data-testid="event" data-sequence={p.sequence}>
      <span class="seq">#{p.sequence}</span> <span class="muted">{p.seat}</span> <strong>{p.action}</strong>
      {p.reason && <span class="chip">{p.reason}</span>}
      {p.message && <span class="muted"> “{p.message}”</span>}
    </li>
  );
});

function EventLog({ log }) {
  return (
    <section class="card">
      <h2>Event log</h2>
      {log.length === 0 && <p class="muted">No events since this page opened.</p>}
      <ol class="event-log" data-testid="event-log" reversed>
        {[...log].reverse().map((event) => (
          <LoggedEvent key={event.sequence} event={event} />
        ))}
      </ol>
    </section>
  );
}

// Not disabled once the match is over: the service's refusal, shown as is, says why.
function AbortForm({ path, onAborted }) {
  const [reason, setReason] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    onAborted(await post(`${path}/abort`, { reason: reason.trim() }));
    setReason('');
  });
  return (
    <form class="card abort" onSubmit={submit}>
      <h2>Abort</h2>
      <label>
        Reason
        <input value={reason} required maxLength={500} onInput={(e) => setReason(e.currentTarget.value)} data-testid="abort-reason" placeholder="why this match is stopped" />
      </label>
      <button type="submit" class="danger" disabled={busy} data-testid="abort-button">
        Abort match
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

export function Match({ params }) {
  const path = `/api/matches/${encodeURIComponent(params.id)}`;
  const [match, setMatch] = useState(null);
  const [view, setView] = useState(null);
  const [log, setLog] = useState([]);
  const [error, setError] = useState(null);

  const load = () => get(path).then(setMatch, setError);
  useEffect(() => {
    load();
  }, [path]);

  // Each adopted view's time from arrival to committed DOM, for benchmarks (render-timing.js).
  const arrived = useRenderTiming(view);
  const status = useEventStream(`${path}/events`, {
    view: (next, at) => {
      setView((current) => {
        const chosen = newer(current, next);
        if (chosen === next) arrived(at);
        return chosen;
      });
      setLog((current) => appendEvent(current, next));
    },
    // The match is over: its state and result are final now.
    end: () => load(),
    error: setError,
  });

  const state = match ? enumName(match.state) : '';
  const names = match ? (match.seats || []).map(seatText) : [];
  // The replay serves finished and aborted matches only; the terminal view may come before
  // the match's state is read again.
  const over = state === 'FINISHED' || state === 'ABORTED' || !!(view && view.terminal);
  return (
    <div class="page-match">
      <div class="page-head">
        <h1>
          {gameName(view ? view.game : match ? match.game : '')} <span class="mono muted">{params.id.slice(0, 12)}</span>
        </h1>
        <span class={`chip state-${state.toLowerCase()}`} data-testid="match-state">
          {state || '…'}
        </span>
        <LiveStatus status={status} />
        {over && (
          <Link href={`/replays/${encodeURIComponent(params.id)}`} data-testid="replay-link">
            Replay
          </Link>
        )}
        <Link href="/ops/matches">All matches</Link>
      </div>
      <ErrorNote error={error} />
      {match && match.abort_reason && <p class="notice">Aborted: {match.abort_reason}</p>}
      {view ? (
        <>
          <div class="status-line">
            <span>
              Sequence <strong data-testid="match-sequence">{String(view.sequence ?? 0)}</strong>
            </span>
            <span>Round {(view.round ?? 0) + 1}</span>
            <span data-testid="turn">{view.terminal ? 'Match over' : `Seat ${view.current_seat} to play`}</span>
            <span>
              Boneyard <strong data-testid="boneyard-count">{view.boneyard_count ?? 0}</strong>
            </span>
            <Clock deadline={view.terminal ? null : view.deadline} />
            <span data-testid="last-event">
              Last: <EventText event={view.last_event} />
            </span>
          </div>
          <ResultView view={view} />
          <div class="columns">
            <Board game={view.game} layout={view.layout} />
            <SeatsTable view={view} names={names} />
          </div>
        </>
      ) : (
        !error && <p class="muted">Waiting for the match's view…</p>
      )}
      <div class="columns">
        <EventLog log={log} />
        <AbortForm path={path} onAborted={setMatch} />
      </div>
    </div>
  );
}
