// Ladders (GET /api/ladders): where people and bots share one rating scale (docs/bots.md). The
// list names each ladder's game and the bot levels it offers; a ladder's page
// (GET /api/ladders/{id}) shows its standings — people and bots on one scale, every bot labelled
// BOT — and lets a person join (opting in to rated games against bots, or not) and challenge a
// house bot, which accepts at once: the page then opens the match (/challenges/{id}). A ladder
// with a pool also offers "play whoever is waiting": the page waits (polling the challenge) until
// another person or, after the ladder's pool_wait, a house bot takes the seat, then opens it.
// Where the game seats more than two, the page names the bot that plays the other seats.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { formatNumber, gameName, resourceId } from '../format.js';
import { Link, navigate } from '../router.js';

export function botLabel(bot) {
  return bot.display_name || (bot.level ? `${bot.kind} level ${bot.level}` : bot.kind);
}

export function Ladders() {
  const [ladders, setLadders] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get('/api/ladders').then((r) => setLadders(r.ladders || []), setError);
  }, []);
  return (
    <section>
      <h1>Ladders</h1>
      <ErrorNote error={error} />
      {ladders && ladders.length === 0 && <p>No ladders yet.</p>}
      {ladders && ladders.length > 0 && (
        <table data-testid="ladders">
          <thead>
            <tr><th>Ladder</th><th>Game</th><th>Bots to challenge</th></tr>
          </thead>
          <tbody>
            {ladders.map((l) => (
              <tr key={l.name}>
                <td><Link href={`/ladders/${resourceId(l.name)}`}>{l.display_name}</Link></td>
                <td>{gameName(l.game)}</td>
                <td>{(l.house_bots || []).map(botLabel).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function Ladder({ params, session }) {
  const id = params.id;
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const [ratedVsBots, setRatedVsBots] = useState(false);
  const [rated, setRated] = useState(false);
  const [joined, setJoined] = useState(false);
  // The pool challenge this page waits on, until its match is created.
  const [waiting, setWaiting] = useState(null);
  const load = () => get(`/api/ladders/${encodeURIComponent(id)}`).then(setPage, setError);
  useEffect(() => {
    load();
  }, [id]);
  const isPlayer = session && session.role === 'player';
  const me = isPlayer ? `players/${session.player_id}` : '';
  useEffect(() => {
    if (page && page.standings.some((s) => s.player === me)) setJoined(true);
  }, [page]);

  const join = async () => {
    setError(null);
    try {
      await post(`/api/ladders/${encodeURIComponent(id)}/join`, { rated_vs_bots: ratedVsBots });
      setJoined(true);
      load();
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setInterval(async () => {
      try {
        const c = await get(`/api/challenges/${resourceId(waiting)}`);
        if (c.state === 'ACCEPTED' && c.match) navigate(`/challenges/${resourceId(c.name)}`);
        if (c.state === 'CANCELLED' || c.state === 'DECLINED') setWaiting(null);
      } catch (err) {
        setError(err);
      }
    }, 500);
    return () => clearInterval(timer);
  }, [waiting]);
  const enterPool = async () => {
    setError(null);
    try {
      const made = await post(`/api/ladders/${encodeURIComponent(id)}/challenges`, {
        opponent: `ladders/${id}/pool`,
        rated,
      });
      if (made.state === 'ACCEPTED' && made.match) navigate(`/challenges/${resourceId(made.name)}`);
      else setWaiting(made.name);
    } catch (err) {
      setError(err);
    }
  };
  const leavePool = async () => {
    try {
      await post(`/api/challenges/${resourceId(waiting)}/decline`, {});
      setWaiting(null);
    } catch (err) {
      setError(err);
    }
  };
  const challenge = async (bot) => {
    setError(null);
    try {
      const made = await post(`/api/ladders/${encodeURIComponent(id)}/challenges`, {
        opponent: `ladders/${id}/bots/${bot.bot_id}`,
        rated,
      });
      navigate(`/challenges/${resourceId(made.name)}`);
    } catch (err) {
      setError(err);
    }
  };

  if (!page) return <section><ErrorNote error={error} /></section>;
  const ladder = page.ladder;
  const fill = (ladder.house_bots || []).find((bot) => bot.bot_id === ladder.fill_bot_id);
  return (
    <section>
      <h1 data-testid="ladder-name">{ladder.display_name}</h1>
      <p>
        {gameName(ladder.game)} · games against bots count at{' '}
        {Math.round((ladder.human_vs_bot_weight || 1) * 100)} % for people who opt in
      </p>
      {fill && (
        <p data-testid="ladder-fill">
          The other seats (partners, the rest of the table): {botLabel(fill)}, unrated.
        </p>
      )}
      <ErrorNote error={error} />
      {isPlayer && !joined && (
        <div class="card" data-testid="ladder-join">
          <label>
            <input type="checkbox" checked={ratedVsBots} onChange={(e) => setRatedVsBots(e.target.checked)} data-testid="ladder-rated-opt-in" />{' '}
            rated games against bots
          </label>{' '}
          <button type="button" onClick={join} data-testid="ladder-join-button">Join</button>
        </div>
      )}
      {isPlayer && joined && (
        <div class="card" data-testid="ladder-challenge">
          <h2>Challenge a bot</h2>
          <label>
            <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} data-testid="ladder-rated" /> rated
          </label>
          <ul class="plain">
            {(ladder.house_bots || []).map((bot) => (
              <li key={bot.bot_id}>
                <button type="button" onClick={() => challenge(bot)} data-testid={`challenge-${bot.bot_id}`}>
                  Challenge {botLabel(bot)}
                </button>
              </li>
            ))}
          </ul>
          {ladder.pool_wait && (
            <p>
              {waiting ? (
                <span data-testid="pool-waiting">
                  Waiting for an opponent (a bot takes the seat after {ladder.pool_wait})…{' '}
                  <button type="button" onClick={leavePool} data-testid="pool-leave">Stop waiting</button>
                </span>
              ) : (
                <button type="button" onClick={enterPool} data-testid="pool-enter">
                  Play whoever is waiting
                </button>
              )}
            </p>
          )}
        </div>
      )}
      <h2>Standings</h2>
      {page.standings_error && <p class="error-note" data-testid="standings-error">{page.standings_error}</p>}
      <table data-testid="ladder-standings">
        <thead>
          <tr><th>#</th><th>Player</th><th></th><th>Rating</th><th>Games</th></tr>
        </thead>
        <tbody>
          {page.standings.map((s) => (
            <tr key={s.player} class={s.player === me ? 'me' : ''}>
              <td>{s.rank}</td>
              <td>
                {s.house_bot ? s.display_name : <Link href={`/players/${encodeURIComponent(resourceId(s.player))}`}>{s.display_name}</Link>}
              </td>
              <td>{s.kind === 'BOT' && <span class="chip bot" data-testid="bot-label">BOT</span>}</td>
              <td>{formatNumber(s.ordinal, 1)}</td>
              <td>{s.games_played || 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
