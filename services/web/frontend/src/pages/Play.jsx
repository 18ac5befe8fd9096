// Playing one seat: the match of a ticket or a ladder challenge, from that seat's view only
// (SeatView through /api/tickets/{id}/play or /api/challenges/{id}/play). Moves are the view's legal actions, offered by tile or as buttons;
// a click posts the action with the sequence of the view it was chosen from, and a refusal
// shows the service's reason and changes nothing.
import { useRef, useState } from 'preact/hooks';
import { post } from '../api.js';
import { Board } from '../board/Board.jsx';
import { Domino } from '../board/Domino.jsx';
import { Clock } from '../components/Clock.jsx';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { EventText } from '../components/EventText.jsx';
import { LiveStatus } from '../components/LiveStatus.jsx';
import { ResultView } from '../components/ResultView.jsx';
import { SeatsTable } from '../components/SeatsTable.jsx';
import { useEventStream } from '../events.js';
import { useRenderTiming } from '../render-timing.js';
import { gameName } from '../format.js';
import { groupActions, tileClick } from '../play/actions.js';
import { ActionButtons, Hand } from '../play/Hand.jsx';
import { newer, sequenceOf } from '../views.js';

function turnText(view) {
  if (view.terminal) return 'Match over';
  if (view.current_seat === view.seat) return 'Your turn';
  return `Seat ${view.current_seat} to play`;
}

export function Play({ params }) {
  // A ticket's match (/play/{ticket}) or a ladder challenge's (/challenges/{id}): the same
  // play stream and actions, the seat looked up on the server.
  const path = params.challengeId
    ? `/api/challenges/${encodeURIComponent(params.challengeId)}`
    : `/api/tickets/${encodeURIComponent(params.ticketId)}`;
  const [view, setView] = useState(null);
  const [error, setError] = useState(null);
  const [streamError, setStreamError] = useState(null);
  // The tile whose actions are offered, and the sequence of the view it was chosen in: a new
  // view drops the selection.
  const [selected, setSelected] = useState(null);
  const [busy, setBusy] = useState(false);
  // Buttons stay enabled while an action is under way (disabling a focused button would drop
  // keyboard focus); a second click meanwhile is ignored instead.
  const sending = useRef(false);

  // Each adopted view's time from arrival to committed DOM, for benchmarks (render-timing.js).
  const arrived = useRenderTiming(view);
  const status = useEventStream(`${path}/play`, {
    view: (next, at) =>
      setView((current) => {
        const chosen = newer(current, next);
        if (chosen === next) arrived(at);
        return chosen;
      }),
    error: setStreamError,
  });

  const seq = sequenceOf(view);
  const selection = selected && selected.sequence === seq ? selected.tile : null;

  const send = async (action) => {
    if (sending.current) return;
    sending.current = true;
    setError(null);
    setBusy(true);
    try {
      const next = await post(`${path}/actions`, { action, seen_sequence: view.sequence });
      setView((current) => newer(current, next));
      setSelected(null);
    } catch (e) {
      setError(e);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  if (!view) {
    return (
      <div class="page-play">
        <h1>Match</h1>
        <ErrorNote error={streamError} />
        {!streamError && <p class="muted">Joining the match…</p>}
      </div>
    );
  }

  const { byTile, other } = groupActions(view.legal_actions);
  const onTile = (tile) => {
    const what = tileClick(tile, byTile);
    if (what.send) {
      send(what.send);
    } else {
      setError(null);
      setSelected(selection === tile ? null : { tile, sequence: seq });
    }
  };
  const yourTurn = !view.terminal && view.current_seat === view.seat;

  return (
    <div class="page-play" data-game={view.game}>
      <div class="page-head">
        <h1>{gameName(view.game)}</h1>
        <span class={`chip${yourTurn ? ' strong' : ''}`} data-testid="turn" data-your-turn={String(yourTurn)}>
          {turnText(view)}
        </span>
        <Clock deadline={view.terminal ? null : view.deadline} />
        <LiveStatus status={status} />
      </div>
      <div class="status-line">
        <span>
          Seat <strong data-testid="own-seat">{view.seat}</strong>
        </span>
        <span>
          Sequence <strong data-testid="sequence">{String(view.sequence ?? 0)}</strong>
        </span>
        <span>Round {(view.round ?? 0) + 1}</span>
        <span>
          Boneyard <strong data-testid="boneyard-count">{view.boneyard_count ?? 0}</strong>
        </span>
        <span data-testid="last-event">
          Last: <EventText event={view.last_event} />
        </span>
      </div>
      <ErrorNote error={streamError} />
      <ResultView view={view} own={view.seat} />
      <Board game={view.game} layout={view.layout} />

      <section class="card your-hand" aria-busy={busy ? 'true' : 'false'}>
        <h2>Your hand</h2>
        <Hand tiles={view.hand || []} byTile={byTile} selected={selection} onTile={onTile} />
        {selection && (
          <div class="tile-actions" data-testid="tile-actions" data-tile={selection}>
            <Domino tile={selection} size={16} />
            <ActionButtons actions={byTile.get(selection) || []} onAction={send} testid="tile-action-buttons" />
            <button type="button" class="ghost" onClick={() => setSelected(null)}>
              Cancel
            </button>
          </div>
        )}
        {other.length > 0 && <ActionButtons actions={other} onAction={send} />}
        <ErrorNote error={error} />
      </section>

      <SeatsTable view={view} own={view.seat} />
    </div>
  );
}
