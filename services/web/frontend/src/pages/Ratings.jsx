// Leaderboards, one game at a time (GET /api/leaderboard/{game}; the game is in the URL,
// /ratings?game=moon, so a link keeps it). Rated games rank by the displayed rating (the
// ordinal, mu - 3 sigma); Castle Rock, a solitaire, ranks results. Each shown player's account
// is read for its name and the "bot" label.
import { useEffect, useState } from 'preact/hooks';
import { get, withQuery } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { GamePicker } from '../components/GamePicker.jsx';
import { formatNumber, formatSeconds, gameName, knownGames, resourceId } from '../format.js';
import { playerAccount } from '../ratings/accounts.js';
import { eachLimited, entryRow, rowLabels } from '../ratings/leaderboard.js';
import { Link, navigate } from '../router.js';

const pageSize = 50;
const defaultGame = 'muggins';

export function PlayerLink({ id, account }) {
  const name = account && account.display_name;
  return (
    <Link href={`/players/${encodeURIComponent(id)}`} data-testid="player-link" data-player={id}>
      {name || id}
      {name && name !== id && <span class="muted mono small"> {id}</span>}
    </Link>
  );
}

export function Labels({ labels }) {
  return labels.map((label) => (
    <span key={label} class={`chip label-${label}`} data-testid="row-label" data-label={label}>
      {label}
    </span>
  ));
}

// player id -> PlayerAccount kind ('' for a player without an account), for rowLabels.
const kindsOf = (accounts) => new Map([...accounts].map(([id, account]) => [id, account ? account.kind : '']));

function RatingRows({ rows, accounts }) {
  const kinds = kindsOf(accounts);
  return (
    <table data-testid="leaderboard" data-kind="rating">
      <thead>
        <tr>
          <th class="num rank-col">Rank</th>
          <th>Player</th>
          <th class="num" title="mu - 3 sigma">
            Rating
          </th>
          <th class="num">μ</th>
          <th class="num">σ</th>
          <th class="num">Games</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.rank}-${row.playerId}`} data-testid="leaderboard-row" data-player={row.playerId} data-rank={row.rank}>
            <td class="num rank-cell" data-label="Rank">
              {row.rank}
            </td>
            <td data-label="Player">
              <span>
                <PlayerLink id={row.playerId} account={accounts.get(row.playerId)} /> <Labels labels={rowLabels(row, kinds)} />
              </span>
            </td>
            <td class="num strong" data-label="Rating" data-testid="rating">
              {formatNumber(row.ordinal, 1)}
            </td>
            <td class="num" data-label="μ">
              {formatNumber(row.mu, 2)}
            </td>
            <td class="num" data-label="σ">
              {formatNumber(row.sigma, 2)}
            </td>
            <td class="num" data-label="Games" data-testid="games-played">
              {row.games}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResultRows({ rows, accounts }) {
  const kinds = kindsOf(accounts);
  return (
    <table data-testid="leaderboard" data-kind="result">
      <thead>
        <tr>
          <th class="num rank-col">Rank</th>
          <th>Player</th>
          <th class="num">Tiles left</th>
          <th class="num">Pips left</th>
          <th class="num">Time</th>
          <th>Won</th>
          <th>Match</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.rank}-${row.playerId}-${row.match}`} data-testid="leaderboard-row" data-player={row.playerId} data-rank={row.rank}>
            <td class="num rank-cell" data-label="Rank">
              {row.rank}
            </td>
            <td data-label="Player">
              <span>
                <PlayerLink id={row.playerId} account={accounts.get(row.playerId)} /> <Labels labels={rowLabels(row, kinds)} />
              </span>
            </td>
            <td class="num strong" data-label="Tiles left">
              {row.tilesLeft}
            </td>
            <td class="num" data-label="Pips left">
              {row.pipsLeft}
            </td>
            <td class="num" data-label="Time">
              {formatSeconds(row.seconds)}
            </td>
            <td data-label="Won">{row.won ? <span class="chip ok">won</span> : <span class="muted">no</span>}</td>
            <td data-label="Match">
              {row.match && (
                <Link href={`/replays/${encodeURIComponent(resourceId(row.match))}`} class="mono" data-testid="replay-link">
                  replay
                </Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Ratings({ query }) {
  const game = knownGames.includes(query.get('game')) ? query.get('game') : defaultGame;
  const [rows, setRows] = useState(null);
  const [nextToken, setNextToken] = useState('');
  const [error, setError] = useState(null);
  // player id -> PlayerAccount, or null for a player without an account.
  const [accounts, setAccounts] = useState(() => new Map());

  const readAccounts = (ids) =>
    eachLimited(ids, 6, async (id) => {
      try {
        const account = await playerAccount(id);
        setAccounts((current) => new Map(current).set(id, account));
      } catch {
        // The row shows the id without labels; the board itself is still right.
      }
    });

  const load = async (pageToken, current) => {
    try {
      const answer = await get(withQuery(`/api/leaderboard/${encodeURIComponent(game)}`, { page_size: pageSize, page_token: pageToken }));
      if (current && !current.value) return;
      const page = (answer.entries || []).map(entryRow);
      setRows((shown) => [...(pageToken ? shown || [] : []), ...page]);
      setNextToken(answer.next_page_token || '');
      setError(null);
      readAccounts([...new Set(page.map((row) => row.playerId))]);
    } catch (e) {
      if (!current || current.value) setError(e);
    }
  };

  useEffect(() => {
    const current = { value: true };
    setRows(null);
    setNextToken('');
    load('', current);
    return () => {
      current.value = false;
    };
  }, [game]);

  const solitaire = rows && rows.some((row) => row.kind === 'result');
  return (
    <div class="page-ratings">
      <div class="page-head">
        <h1>Ratings</h1>
        <GamePicker game={game} onChange={(g) => navigate(`/ratings?game=${encodeURIComponent(g)}`, { replace: true })} />
      </div>
      <p class="muted">
        {game === 'castle_rock'
          ? 'Castle Rock is a solitaire: each player’s best result, fewest tiles left first, then fewest pips, then the quickest.'
          : 'Rating = μ − 3σ (the skill the system is fairly sure of); provisional until σ has settled.'}
      </p>
      <ErrorNote error={error} />
      {rows === null ? (
        !error && <p class="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="muted" data-testid="no-entries">
          No one on the {gameName(game)} board yet.
        </p>
      ) : (
        <div class="card table-scroll stack-narrow">{solitaire ? <ResultRows rows={rows} accounts={accounts} /> : <RatingRows rows={rows} accounts={accounts} />}</div>
      )}
      {nextToken && (
        <button type="button" class="secondary" onClick={() => load(nextToken)} data-testid="more">
          More
        </button>
      )}
    </div>
  );
}
