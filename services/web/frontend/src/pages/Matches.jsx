// The list of matches, filtered by game and state (ACTIVE unless chosen otherwise; the filters
// live in the URL so a link keeps them). It is fetched again whenever an overview sample
// arrives, which is the push that says "things have moved" without polling.
import { useEffect, useState } from 'preact/hooks';
import { get, withQuery } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { LiveStatus } from '../components/LiveStatus.jsx';
import { useEventStream } from '../events.js';
import { enumName, formatTime, gameName, knownGames, resourceId, seatText } from '../format.js';
import { Link, navigate } from '../router.js';

const states = ['ACTIVE', 'FINISHED', 'ABORTED', 'STATE_UNSPECIFIED'];
const stateLabels = { STATE_UNSPECIFIED: 'any state' };
const pageSize = 50;

export function Matches({ query }) {
  const game = query.get('game') || '';
  const state = query.get('state') || 'ACTIVE';
  const [list, setList] = useState(null);
  const [nextToken, setNextToken] = useState('');
  const [error, setError] = useState(null);
  const [games, setGames] = useState(knownGames);
  // Bumped by each overview sample; a change fetches the first page again.
  const [tick, setTick] = useState(0);

  const url = (pageToken) => withQuery('/api/matches', { state, game, page_size: pageSize, page_token: pageToken });

  useEffect(() => {
    let current = true;
    get(url('')).then(
      (answer) => {
        if (!current) return;
        setList(answer.matches || []);
        setNextToken(answer.next_page_token || '');
        setError(null);
      },
      (e) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [game, state, tick]);

  const status = useEventStream('/api/overview/events', {
    overview: (sample) => {
      const seen = Object.keys(sample.live_matches || {});
      setGames((known) => (seen.every((g) => known.includes(g)) ? known : [...new Set([...known, ...seen])]));
      setTick((n) => n + 1);
    },
  });

  const more = async () => {
    try {
      const answer = await get(url(nextToken));
      setList((shown) => [...shown, ...(answer.matches || [])]);
      setNextToken(answer.next_page_token || '');
    } catch (e) {
      setError(e);
    }
  };

  const setFilter = (key, value) => {
    const next = new URLSearchParams({ game, state });
    next.set(key, value);
    if (!next.get('game')) next.delete('game');
    navigate(`/ops/matches?${next}`, { replace: true });
  };

  return (
    <div class="page-matches">
      <div class="page-head">
        <h1>Matches</h1>
        <LiveStatus status={status} />
      </div>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Game
          <select value={game} onChange={(e) => setFilter('game', e.currentTarget.value)} data-testid="filter-game">
            <option value="">all games</option>
            {games.map((g) => (
              <option key={g} value={g}>
                {gameName(g)}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setFilter('state', e.currentTarget.value)} data-testid="filter-state">
            {states.map((s) => (
              <option key={s} value={s}>
                {stateLabels[s] || s.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorNote error={error} />
      {list === null ? (
        !error && <p class="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p class="muted" data-testid="no-matches">
          No matches.
        </p>
      ) : (
        <div class="table-scroll card">
          <table data-testid="matches-table">
            <thead>
              <tr>
                <th>Match</th>
                <th>Game</th>
                <th>State</th>
                <th>Seats</th>
                <th class="num">Events</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.map((m) => {
                const id = resourceId(m.name);
                return (
                  <tr key={m.name} data-testid="match-row" data-match={m.name}>
                    <td>
                      <Link href={`/ops/matches/${encodeURIComponent(id)}`} class="mono">
                        {id.slice(0, 12)}
                      </Link>
                    </td>
                    <td>{gameName(m.game)}</td>
                    <td>
                      <span class={`chip state-${enumName(m.state).toLowerCase()}`}>{enumName(m.state).toLowerCase()}</span>
                    </td>
                    <td class="seats-cell">{(m.seats || []).map(seatText).join(', ')}</td>
                    <td class="num">{m.sequence ?? 0}</td>
                    <td>{formatTime(m.update_time)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {nextToken && (
        <button type="button" class="secondary" onClick={more} data-testid="more">
          More
        </button>
      )}
    </div>
  );
}
