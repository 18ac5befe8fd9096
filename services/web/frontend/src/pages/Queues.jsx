// The operators' queues: each queue's settings (GET /api/queues) beside its live counters from
// the overview samples (GET /api/overview, then `overview` events), the balance of the
// matches it formed, and the form that creates a queue or changes one.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api.js';
import { BalanceChart } from '../components/BalanceChart.jsx';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { LiveStatus } from '../components/LiveStatus.jsx';
import { useEventStream } from '../events.js';
import { formatNumber, formatSeconds, formatTime, gameName, resourceId } from '../format.js';
import { QueueForm } from '../queues/QueueForm.jsx';
import { emptyForm, formFromQueue } from '../queues/settings.js';
import { balanceBars, evenShare, joinQueues } from '../queues/stats.js';
import { formatText } from './Lobby.jsx';

function botText(botFill) {
  if (!botFill || !botFill.enabled) return 'no bots';
  return `bots after ${botFill.after || '0s'}${botFill.bot_kind ? ` (${botFill.bot_kind})` : ''}`;
}

function QueueRow({ row, onEdit }) {
  const { queue, stats } = row;
  const id = resourceId(row.name);
  const dash = <span class="muted">—</span>;
  const even = stats ? evenShare(balanceBars(stats.win_chance)) : null;
  return (
    <tr data-testid="queue-stats" data-queue={row.name}>
      <td data-label="Queue">
        <strong>{(queue && queue.display_name) || (stats && stats.display_name) || id}</strong> <span class="mono muted">{id}</span>
        <div class="muted small">
          {gameName((queue || stats).game)}
          {queue && ` · ${formatText(queue.format)} · ${queue.rated ? 'rated' : 'casual'} · ${botText(queue.bot_fill)}`}
          {!queue && ' · not listed'}
        </div>
      </td>
      <td class="num" data-label="Searching" data-testid="queue-searching">
        {stats ? formatNumber(stats.searching) : dash}
      </td>
      <td class="num" data-label="Oldest wait">
        {stats && stats.searching ? formatSeconds(stats.oldest_wait_seconds) : dash}
      </td>
      <td class="num" data-label="Wait p50 / p95">
        {stats && stats.matches_created ? `${formatSeconds(stats.wait_p50_seconds)} / ${formatSeconds(stats.wait_p95_seconds)}` : dash}
      </td>
      <td class="num" data-label="Matches" data-testid="queue-matches">
        {stats ? formatNumber(stats.matches_created) : dash}
      </td>
      <td class="num" data-label="Bot seats">
        {stats ? formatNumber(stats.bot_seats) : dash}
      </td>
      <td data-label="Balance">
        {stats ? (
          <div>
            <BalanceChart winChance={stats.win_chance} queue={row.name} />
            {even !== null && <div class="muted small">{Math.round(even * 100)} % within 45–55 %</div>}
          </div>
        ) : (
          dash
        )}
      </td>
      <td data-label="">
        {queue && (
          <button type="button" class="secondary" onClick={() => onEdit(queue)} data-testid="queue-edit" data-queue={row.name} aria-label={`Change ${id}`}>
            Change
          </button>
        )}
      </td>
    </tr>
  );
}

export function Queues() {
  const [settings, setSettings] = useState(null);
  const [overview, setOverview] = useState(null);
  const [error, setError] = useState(null);
  const [editing, setEditing] = useState(() => ({ ...emptyForm(), mode: 'create' }));
  const formRef = useRef(null);

  const loadSettings = () =>
    get('/api/queues').then(
      (answer) => setSettings(answer.queues || []),
      (e) => setError(e),
    );
  useEffect(() => {
    loadSettings();
    get('/api/overview').then((sample) => setOverview((current) => current || sample), setError);
  }, []);
  const status = useEventStream('/api/overview/events', {
    overview: (sample) => {
      setOverview(sample);
      setError(null);
    },
    error: setError,
  });

  const edit = (queue) => {
    setEditing({ ...formFromQueue(queue), mode: 'edit' });
    if (formRef.current) formRef.current.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const onSaved = (queue) => {
    loadSettings();
    // After a change the form goes on editing what was saved, so a second change diffs from it.
    if (queue && queue.name) setEditing((current) => (current.mode === 'edit' ? { ...formFromQueue(queue), mode: 'edit' } : current));
  };

  const rows = settings === null ? [] : joinQueues(settings, overview ? overview.queues : []);
  return (
    <div class="page-queues">
      <div class="page-head">
        <h1>Queues</h1>
        <LiveStatus status={status} />
        {overview && (
          <span class="muted" data-testid="overview-time">
            counters at {formatTime(overview.time)}, since matchmaking started
          </span>
        )}
      </div>
      <ErrorNote error={error} />
      {settings === null ? (
        !error && <p class="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="muted" data-testid="no-queues">
          No queues yet: create one below.
        </p>
      ) : (
        <div class="card table-scroll stack-narrow">
          <table data-testid="queues-table">
            <thead>
              <tr>
                <th>Queue</th>
                <th class="num">Searching</th>
                <th class="num">Oldest wait</th>
                <th class="num">Wait p50 / p95</th>
                <th class="num">Matches</th>
                <th class="num">Bot seats</th>
                <th title="first side's predicted win chance, matches of two sides">Balance</th>
                <th>
                  <span class="visually-hidden">Change</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <QueueRow key={row.name} row={row} onEdit={edit} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* Keyed: when the list above turns from "Loading…" into a table (another div), Preact
          would otherwise match that div with this one and mount the form afresh, dropping
          what was typed meanwhile. */}
      <div key="form" ref={formRef}>
        <QueueForm editing={editing} onSaved={onSaved} onCancel={() => setEditing({ ...emptyForm(), mode: 'create' })} />
      </div>
    </div>
  );
}
