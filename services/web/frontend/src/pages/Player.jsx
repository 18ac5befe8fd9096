// One player: the account (GET /api/players/{id}), the rating history of one game at a time
// (GET /api/players/{id}/ratings?game=G, the game in the URL) drawn as a chart, and the
// matches the player was seated in through matchmaking (GET /api/players/{id}/matches), each
// finished one linking to its replay. A player may have ratings without an account (players
// seated directly by an operator or the load generator): the page shows what there is.
import { useEffect, useState } from 'preact/hooks';
import { get, withQuery } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { GamePicker } from '../components/GamePicker.jsx';
import { RatingChart } from '../components/RatingChart.jsx';
import { enumName, formatNumber, formatTime, gameName, knownGames, resourceId } from '../format.js';
import { chanceText, matchOutcome } from '../players/outcome.js';
import { ratingPoints } from '../ratings/history.js';
import { Link, navigate } from '../router.js';

const historySize = 200;
const matchesPageSize = 50;
// Castle Rock has no rating history, so a newer solitaire does not pick the chart's game.
const newestRatedGame = (matches) => (matches.find((m) => knownGames.includes(m.game) && m.game !== 'castle_rock') || {}).game || '';
const replayHref = (match) => `/replays/${encodeURIComponent(resourceId(match))}`;

function Account({ id, account, error }) {
  if (account === undefined && !error) return <p class="muted">Loading…</p>;
  if (!account) {
    return (
      <p class="muted" data-testid="no-account">
        {error && error.status !== 404 ? '' : `No player account “${id}”: only ratings and matches are shown.`}
      </p>
    );
  }
  const bot = enumName(account.kind) === 'BOT';
  return (
    <p class="account" data-testid="account" data-kind={enumName(account.kind)}>
      <span class="mono">{account.player_id}</span>
      {bot ? (
        <span class="chip label-bot" data-testid="row-label" data-label="bot">
          bot
        </span>
      ) : (
        <span class="chip">person</span>
      )}
      <span class="muted">since {formatTime(account.create_time)}</span>
    </p>
  );
}

function History({ id, game }) {
  const [changes, setChanges] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let current = true;
    setChanges(null);
    setError(null);
    if (game === 'castle_rock') return undefined;
    get(withQuery(`/api/players/${encodeURIComponent(id)}/ratings`, { game, page_size: historySize })).then(
      (answer) => current && setChanges(answer.changes || []),
      (e) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [id, game]);

  if (game === 'castle_rock') {
    return (
      <p class="muted">
        Castle Rock is a solitaire and is not rated: see its <Link href="/ratings?game=castle_rock">best results</Link>.
      </p>
    );
  }
  if (error) return <ErrorNote error={error} />;
  if (changes === null) return <p class="muted">Loading…</p>;
  if (changes.length === 0) {
    return (
      <p class="muted" data-testid="no-history">
        No rated {gameName(game)} matches yet.
      </p>
    );
  }
  const latest = changes[0];
  const points = ratingPoints(changes);
  return (
    <>
      <p class="rating-now" data-testid="rating-now">
        <span class="big">{formatNumber(latest.ordinal_after, 1)}</span>
        <span class="muted">
          μ {formatNumber(latest.mu_after, 2)} · σ {formatNumber(latest.sigma_after, 2)} · {changes.length}
          {changes.length === historySize ? '+' : ''} rated match{changes.length === 1 ? '' : 'es'}
        </span>
      </p>
      <RatingChart points={points} label={`${gameName(game)} rating`} />
      <details class="recent-changes">
        <summary>The last {Math.min(10, changes.length)} changes</summary>
        <ol class="changes" data-testid="rating-changes">
          {changes.slice(0, 10).map((c) => {
            const delta = Number(c.ordinal_after) - Number(c.ordinal_before);
            return (
              <li key={c.match} data-match={c.match}>
                <Link href={replayHref(c.match)}>{formatTime(c.match_end_time)}</Link> rank {c.rank}:{' '}
                <strong class={delta >= 0 ? 'up' : 'down'}>
                  {delta >= 0 ? '+' : '−'}
                  {formatNumber(Math.abs(delta), 2)}
                </strong>{' '}
                → {formatNumber(c.ordinal_after, 1)}
              </li>
            );
          })}
        </ol>
      </details>
    </>
  );
}

function MatchRow({ m }) {
  const outcome = matchOutcome(m);
  return (
    <tr data-testid="player-match" data-match={m.match} data-finished={String(outcome.finished)}>
      <td data-label="Formed">{formatTime(m.create_time)}</td>
      <td data-label="Game">{gameName(m.game)}</td>
      <td data-label="Queue" class="mono">
        {resourceId(m.queue)}
      </td>
      <td class="num" data-label="Seat">
        {m.seat}
        {m.team >= 0 ? ` (team ${m.team})` : ''}
      </td>
      <td class="num" data-label="Predicted">
        {chanceText(m.win_chance) || <span class="muted">—</span>}
      </td>
      <td data-label="Result">
        {outcome.finished ? (
          <span>
            <span class={`chip ${outcome.won ? 'ok' : 'alert'}`}>{outcome.won ? 'won' : 'lost'}</span>
            {outcome.seats > 1 && outcome.rank !== null && <span class="muted">#{outcome.rank}</span>} {outcome.score !== null && <span>{outcome.score} pts</span>}
          </span>
        ) : (
          <span class="muted">no result</span>
        )}
      </td>
      <td data-label="">
        {outcome.finished && (
          <Link href={replayHref(m.match)} data-testid="replay-link">
            Replay
          </Link>
        )}
      </td>
    </tr>
  );
}

function Matches({ id, onFirst }) {
  const [matches, setMatches] = useState(null);
  const [nextToken, setNextToken] = useState('');
  const [error, setError] = useState(null);
  const load = async (pageToken) => {
    try {
      const answer = await get(withQuery(`/api/players/${encodeURIComponent(id)}/matches`, { page_size: matchesPageSize, page_token: pageToken }));
      const page = answer.matches || [];
      setMatches((shown) => [...(pageToken ? shown || [] : []), ...page]);
      setNextToken(answer.next_page_token || '');
      if (!pageToken) onFirst(page);
    } catch (e) {
      // NOT_FOUND: no account, so no matches through matchmaking (the note above says so).
      if (e.status === 404) setMatches((shown) => shown || []);
      else setError(e);
      if (!pageToken) onFirst([]);
    }
  };
  useEffect(() => {
    load('');
  }, [id]);

  return (
    <section class="card">
      <h2>Matches</h2>
      <ErrorNote error={error} />
      {matches === null ? (
        !error && <p class="muted">Loading…</p>
      ) : matches.length === 0 ? (
        <p class="muted" data-testid="no-matches">
          No matches through matchmaking.
        </p>
      ) : (
        <div class="table-scroll stack-narrow">
          <table data-testid="player-matches">
            <thead>
              <tr>
                <th>Formed</th>
                <th>Game</th>
                <th>Queue</th>
                <th class="num">Seat</th>
                <th class="num" title="the predicted chance of the player's side when the match was formed">
                  Predicted
                </th>
                <th>Result</th>
                <th>
                  <span class="visually-hidden">Replay</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {matches.map((m) => (
                <MatchRow key={m.match} m={m} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextToken && (
        <button type="button" class="secondary" onClick={() => load(nextToken)} data-testid="more">
          More
        </button>
      )}
    </section>
  );
}

export function Player({ params, query, session }) {
  const id = params.id;
  const [account, setAccount] = useState(undefined);
  const [accountError, setAccountError] = useState(null);
  // The game of the newest rated-game match: the page's game when the URL names none;
  // undefined until the matches are read.
  const [recentGame, setRecentGame] = useState(undefined);
  useEffect(() => {
    get(`/api/players/${encodeURIComponent(id)}`).then(setAccount, (e) => {
      setAccount(null);
      setAccountError(e);
    });
  }, [id]);

  const asked = query.get('game');
  const game = knownGames.includes(asked) ? asked : recentGame === undefined ? null : recentGame || 'muggins';
  const own = session && session.player_id === id;
  return (
    <div class="page-player">
      <div class="page-head">
        <h1 data-testid="player-name">{(account && account.display_name) || id}</h1>
        {own && <span class="chip strong">you</span>}
        <Link href="/ratings">Leaderboards</Link>
      </div>
      <Account id={id} account={account} error={accountError} />
      <ErrorNote error={accountError && accountError.status !== 404 ? accountError : null} />
      <section class="card">
        <div class="section-head">
          <h2>Rating</h2>
          {game && <GamePicker game={game} testid="player-game" onChange={(g) => navigate(`/players/${encodeURIComponent(id)}?game=${encodeURIComponent(g)}`, { replace: true })} />}
        </div>
        {game ? <History id={id} game={game} /> : <p class="muted">Loading…</p>}
      </section>
      <Matches id={id} onFirst={(page) => setRecentGame(newestRatedGame(page))} />
    </div>
  );
}
