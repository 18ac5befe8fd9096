// The operators' overview: one sample of the system (GET /api/overview), then each new sample
// as it is pushed (`overview` events, every 5 s).
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { LiveStatus } from '../components/LiveStatus.jsx';
import { Sparkline } from '../components/Sparkline.jsx';
import { useEventStream } from '../events.js';
import { formatNumber, formatSeconds, formatTime, gameName } from '../format.js';

function Stat({ label, value, testid, series, children }) {
  return (
    <section class="card stat" data-testid={testid}>
      <h2>{label}</h2>
      <p class="big" data-testid={`${testid}-value`}>
        {value}
      </p>
      {series && <Sparkline values={series} label={label} />}
      {children}
    </section>
  );
}

export function Overview() {
  const [overview, setOverview] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get('/api/overview').then(setOverview, setError);
  }, []);
  const status = useEventStream('/api/overview/events', {
    overview: (sample) => {
      setOverview(sample);
      setError(null);
    },
    error: setError,
  });

  if (!overview) {
    return (
      <div>
        <h1>Overview</h1>
        <ErrorNote error={error} />
        {!error && <p class="muted">Loading…</p>}
      </div>
    );
  }
  const history = overview.history || [];
  const series = (key) => history.map((sample) => sample[key]);
  const live = Object.entries(overview.live_matches || {}).sort((a, b) => b[1] - a[1]);
  const liveTotal = live.reduce((sum, [, n]) => sum + n, 0);
  const queues = overview.queues || [];
  const searching = queues.reduce((sum, q) => sum + (q.searching || 0), 0);
  // Matchmaking's counters since it started, when the service reports them.
  const waits = queues.some((q) => q.matches_created !== undefined);

  return (
    <div class="page-overview">
      <div class="page-head">
        <h1>Overview</h1>
        <LiveStatus status={status} />
        <span class="muted" data-testid="overview-time">
          {formatTime(overview.time)}
        </span>
      </div>
      <ErrorNote error={error} />

      <section class="card" data-testid="services">
        <h2>Services</h2>
        <div class="chips">
          {(overview.services || []).map((service) => (
            <span key={service.name} class={`chip ${service.serving ? 'ok' : 'alert'}`} data-testid="service" data-name={service.name} data-serving={String(!!service.serving)}>
              {service.name}: {service.serving ? 'serving' : 'down'}
            </span>
          ))}
        </div>
      </section>

      <div class="stats">
        <Stat label="Live matches" value={formatNumber(liveTotal)} testid="live-matches" series={series('live_matches')}>
          <ul class="by-game">
            {live.map(([game, n]) => (
              <li key={game} data-game={game}>
                <span>{gameName(game)}</span> <strong>{formatNumber(n)}</strong>
              </li>
            ))}
          </ul>
        </Stat>
        <Stat label="Actions / s" value={formatNumber(overview.actions_per_second, 1)} testid="actions-per-second" series={series('actions_per_second')} />
        <Stat label="Finished / min" value={formatNumber(overview.finished_per_minute, 1)} testid="finished-per-minute" series={series('finished_per_minute')} />
        <Stat label="Searching" value={formatNumber(searching)} testid="searching" series={series('searching')} />
        {/* Either or both, as the service reports them (docs/web.md's overview). */}
        {overview.ratings_backlog !== undefined && <Stat label="Ratings backlog" value={formatNumber(overview.ratings_backlog)} testid="ratings-backlog" />}
        {overview.results_parked !== undefined && <Stat label="Results parked" value={formatNumber(overview.results_parked)} testid="results-parked" />}
      </div>

      <section class="card" data-testid="queues">
        <h2>Queues</h2>
        {queues.length === 0 ? (
          <p class="muted">No queues.</p>
        ) : (
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>Queue</th>
                  <th class="num">Searching</th>
                  <th class="num">Oldest wait</th>
                  {waits && <th class="num">Wait p50 / p95</th>}
                  {waits && <th class="num">Matches</th>}
                  {waits && <th class="num">Bot seats</th>}
                </tr>
              </thead>
              <tbody>
                {queues.map((q) => (
                  <tr key={q.queue} data-queue={q.queue}>
                    <td>{q.display_name || q.queue}</td>
                    <td class="num">{q.searching || 0}</td>
                    <td class="num">{q.searching ? formatSeconds(q.oldest_wait_seconds) : '—'}</td>
                    {waits && (
                      <td class="num">
                        {q.wait_p50_seconds === undefined ? '—' : `${formatSeconds(q.wait_p50_seconds)} / ${formatSeconds(q.wait_p95_seconds)}`}
                      </td>
                    )}
                    {waits && <td class="num">{formatNumber(q.matches_created)}</td>}
                    {waits && <td class="num">{formatNumber(q.bot_seats)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
