// A finished (or aborted) match step by step (GET /api/replays/{id}): the move list, first /
// back / forward / last and the keys ← → Home End (PageUp / PageDown by ten), the board of the
// step drawn by the game's board, every hand, the scores and the result. The step is in the
// URL (?step=N), so a link opens the same position.
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { Board } from '../board/Board.jsx';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { ResultView } from '../components/ResultView.jsx';
import { SeatsTable } from '../components/SeatsTable.jsx';
import { actionText, gameName, resourceId } from '../format.js';
import { Hands, SeatName } from '../replay/Hands.jsx';
import { MoveList } from '../replay/MoveList.jsx';
import { clampStep, moveList, resultSummary, seatLabels, stepForKey } from '../replay/steps.js';
import { navigate } from '../router.js';

// Keys typed into a field are the field's.
const typing = (target) => target && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName));

// At either end a button is aria-disabled, not disabled: a disabled button would drop the
// keyboard focus it holds; pressing it then does nothing (go() stays within the replay).
function Controls({ index, count, go }) {
  const atStart = index === 0;
  const atEnd = index === count - 1;
  return (
    <div class="replay-controls" role="group" aria-label="replay steps">
      <button type="button" class="secondary" onClick={() => go(0)} aria-disabled={String(atStart)} data-testid="replay-first" title="first step (Home)">
        <span aria-hidden="true">«</span>
        <span class="word"> First</span>
      </button>
      <button type="button" class="secondary" onClick={() => go(index - 1)} aria-disabled={String(atStart)} data-testid="replay-back" title="one move back (←)">
        <span aria-hidden="true">‹</span>
        <span class="word"> Back</span>
      </button>
      <span class="step-count">
        Step <strong data-testid="replay-step">{index}</strong> / {count - 1}
      </span>
      <button type="button" class="secondary" onClick={() => go(index + 1)} aria-disabled={String(atEnd)} data-testid="replay-forward" title="one move forward (→)">
        <span class="word">Next </span>
        <span aria-hidden="true">›</span>
      </button>
      <button type="button" class="secondary" onClick={() => go(count - 1)} aria-disabled={String(atEnd)} data-testid="replay-last" title="last step (End)">
        <span class="word">Last </span>
        <span aria-hidden="true">»</span>
      </button>
    </div>
  );
}

function Summary({ record }) {
  const result = record.result;
  return (
    <span class={`chip ${result ? 'strong' : 'alert'}`} data-testid="replay-result" data-outcome={result ? 'finished' : 'aborted'}>
      {resultSummary(result)}
    </span>
  );
}

export function Replay({ params, query }) {
  const id = params.matchId;
  const [record, setRecord] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get(`/api/replays/${encodeURIComponent(id)}`).then(setRecord, setError);
  }, [id]);

  const steps = (record && record.steps) || [];
  const count = steps.length;
  const index = clampStep(query.get('step'), count);
  const go = (next) => {
    const to = clampStep(next, count);
    if (to !== index) navigate(`/replays/${encodeURIComponent(id)}?step=${to}`, { replace: true });
  };

  useEffect(() => {
    if (count === 0) return undefined;
    const onKey = (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) return;
      const next = stepForKey(event.key, index, count);
      if (next === null) return;
      event.preventDefault();
      go(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, count]);

  if (!record) {
    return (
      <div class="page-replay">
        <h1>Replay</h1>
        <ErrorNote error={error} />
        {!error && <p class="muted">Loading…</p>}
      </div>
    );
  }
  const step = steps[index] || {};
  const labels = seatLabels(record);
  const names = labels.map((entry) => entry.label);
  const moves = moveList(steps);
  const last = index === count - 1;
  return (
    <div class="page-replay" data-game={record.game}>
      <div class="page-head">
        <h1>
          {gameName(record.game)} <span class="mono muted">{resourceId(record.name).replace(/\/record$/, '').slice(0, 12)}</span>
        </h1>
        <Summary record={record} />
      </div>
      {count === 0 ? (
        <p class="muted">This record has no steps.</p>
      ) : (
        <>
          <div class="replay-bar">
            <Controls index={index} count={count} go={go} />
            <span class="replay-move" data-testid="replay-move">
              {index === 0 ? (
                'The deal'
              ) : (
                <>
                  Round {(Number(step.round) || 0) + 1} · <SeatName seat={step.seat} labels={labels} />: <strong>{actionText(step.action)}</strong>
                </>
              )}
              {step.terminal ? <span class="chip">match over</span> : <span class="muted"> · seat {step.current_seat} to play</span>}
            </span>
          </div>
          <div class="columns replay-columns">
            <div>
              <Board game={record.game} layout={step.layout} />
              <Hands step={step} labels={labels} />
            </div>
            <div>
              <section class="card">
                <h2>Moves</h2>
                <MoveList moves={moves} index={index} onJump={go} />
                <p class="muted small keys">← → step · Home End · PageUp PageDown ten</p>
              </section>
              <section class="card">
                <h2>Scores</h2>
                <SeatsTable view={{ ...step, current_seat: step.terminal ? -1 : step.current_seat }} names={names} />
                <p class="muted small">Boneyard: {step.boneyard_count ?? 0}</p>
              </section>
              {last && record.result && <ResultView view={{ terminal: true, result: record.result }} />}
            </div>
          </div>
        </>
      )}
    </div>
  );
}
