// The audit log of operators' actions, newest first, a page at a time.
import { useEffect, useState } from 'preact/hooks';
import { get, withQuery } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { formatTime, resourceId } from '../format.js';
import { Link } from '../router.js';

const pageSize = 50;

export function Audit() {
  const [entries, setEntries] = useState(null);
  const [before, setBefore] = useState('');
  const [error, setError] = useState(null);

  const load = async (from) => {
    try {
      const answer = await get(withQuery('/api/audit', { page_size: pageSize, before: from }));
      setEntries((shown) => [...(from ? shown || [] : []), ...(answer.entries || [])]);
      setBefore(answer.next_before ? String(answer.next_before) : '');
      setError(null);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    load('');
  }, []);

  return (
    <div class="page-audit">
      <div class="page-head">
        <h1>Audit log</h1>
        <button type="button" class="secondary" onClick={() => load('')} data-testid="refresh">
          Refresh
        </button>
      </div>
      <ErrorNote error={error} />
      {entries === null ? (
        !error && <p class="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p class="muted">Nothing recorded yet.</p>
      ) : (
        <div class="table-scroll card">
          <table data-testid="audit-table">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Action</th>
                <th>Target</th>
                <th>Detail</th>
                <th>Outcome</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-entry" data-id={entry.id}>
                  <td>{formatTime(entry.time)}</td>
                  <td class="mono">{entry.actor}</td>
                  <td>{entry.action}</td>
                  <td class="mono">
                    {String(entry.target || '').startsWith('matches/') ? <Link href={`/ops/matches/${encodeURIComponent(resourceId(entry.target))}`}>{entry.target}</Link> : entry.target}
                  </td>
                  <td>{entry.detail}</td>
                  <td>
                    <span class={`chip wrap ${entry.outcome === 'OK' ? 'ok' : 'alert'}`}>{entry.outcome}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {before && (
        <button type="button" class="secondary" onClick={() => load(before)} data-testid="older">
          Older
        </button>
      )}
    </div>
  );
}
