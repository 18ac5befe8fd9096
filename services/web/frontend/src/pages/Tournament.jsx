// One tournament (GET /api/tournaments/{id}, read again every two seconds while it runs, so
// results appear as they come in): registration (players enter or withdraw themselves; the
// operator adds bots and starts it), the pairings of every round, the standings with the
// event's tie-breaks, for a knockout its bracket, for an arena its live leaderboard, and for a
// league its tables by division and its calendar of rounds with their dates. No seat token
// reaches this page: the pairings are read without one.
import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { enumText, formatNumber, formatTime, gameName, resourceId } from '../format.js';
import { Link } from '../router.js';
import { arenaClock, arenaGames, bracketColumns, clockText, divisionTables, formatPoints, handComparisons, isLive, namesOf, outcomeText, pairCountRows, partnerTeams, sheetGames, tableSeats, winnerOf } from '../tournaments/page.js';
import { formatLine } from './Tournaments.jsx';

const pollMs = 2000;

// A duplicate round's replays wait for the round's end: execution keeps every record of the
// round's deal until the last table is over.
function GameLinks({ games, hidden }) {
  if (hidden) return null;
  return (games || []).filter((g) => g.match).map((g) => (
    <Link key={g.number} href={g.outcome && g.outcome !== 'OUTCOME_UNSPECIFIED' ? `/replays/${resourceId(g.match)}` : '#'} class="muted">
      {` g${g.number}`}
    </Link>
  ));
}

// A table of a round robin at tables: its seats in order, each with its place and points once
// the game is over; one entrant alone sits the round out.
function TableRow({ p, names, hidden }) {
  const seats = tableSeats(p, names);
  return (
    <tr data-testid="pairing" data-board={p.board} data-outcome={p.outcome}>
      <td class="num">{p.board}</td>
      <td colSpan={3} data-testid="table-seats">
        {p.outcome === 'BYE' && <span>{seats[0].name} <span class="muted">sits out</span></span>}
        {p.outcome !== 'BYE' && seats.map((s) => (
          <span key={s.entrant} class={s.place === 1 ? 'strong' : ''} style={{ marginRight: '1.5em' }} data-testid="table-seat" data-place={s.place}>
            {s.name}
            {s.place > 0 && <span class="muted small">{` #${s.place} · ${formatPoints(s.points)}`}</span>}
          </span>
        ))}
        {p.outcome !== 'BYE' && p.outcome !== 'PLACED' && <span class="muted">playing</span>}
      </td>
      <td class="small"><GameLinks games={p.games} hidden={hidden} /></td>
    </tr>
  );
}

// A partner rotation's table: its two teams of partners, the winners in bold with their points
// once the game is over.
function PartnerTableRow({ p, names, hidden }) {
  if (!p.table || p.outcome === 'BYE') return <TableRow p={p} names={names} hidden={hidden} />;
  const teams = partnerTeams(p, names);
  return (
    <tr data-testid="pairing" data-board={p.board} data-outcome={p.outcome}>
      <td class="num">{p.board}</td>
      {teams.map((team, i) => (
        <td key={i} class={team.place === 1 && p.outcome === 'PLACED' ? 'strong' : ''} data-testid="partner-team" data-place={team.place}>
          {i === 1 && <span class="muted">vs </span>}
          {team.names.join(' & ')}
          {team.place > 0 && <span class="muted small">{` · ${formatPoints(team.points)}`}</span>}
        </td>
      ))}
      <td>{p.outcome !== 'PLACED' && <span class="muted">playing</span>}</td>
      <td class="small"><GameLinks games={p.games} hidden={hidden} /></td>
    </tr>
  );
}

// How often each pair partnered and opposed so far: "partners/opponents" per cell.
function PairCountsMatrix({ counts, names }) {
  const rows = pairCountRows(counts, names);
  if (rows.length === 0) return null;
  return (
    <section class="card">
      <h2>Partners and opponents <span class="muted small">times partnered / opposed</span></h2>
      <div style={{ overflowX: 'auto' }}>
        <table class="table small" data-testid="pair-counts">
          <thead>
            <tr><th />{rows.map((r) => <th key={r.entrant} class="num" title={r.name}>{r.entrant}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.entrant}>
                <th>{r.entrant} <span class="muted">{r.name}</span></th>
                {r.cells.map((c, j) => <td key={j} class="num mono" data-testid={c ? 'pair-count' : undefined}>{c ? `${c.partners}/${c.opponents}` : '—'}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// A finished duplicate round: the seed every table was dealt from, and each hand's holders
// best first with their matchpoints.
function Comparisons({ round, names }) {
  const hands = handComparisons(round, names);
  if (!round.seed) return null;
  return (
    <div data-testid="duplicate">
      <p class="muted small">Dealt from seed <span class="mono" data-testid="round-seed">{round.seed}</span></p>
      <div class="row" style={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
        {hands.map((hand) => (
          <table key={hand.key} class="table small" data-testid="hand-comparison" data-seat={hand.seat}>
            <thead>
              <tr><th colSpan={4}>{hand.title}</th></tr>
            </thead>
            <tbody>
              {hand.results.map((r) => (
                <tr key={r.board} data-testid="hand-holder" data-matchpoints={r.matchpoints}>
                  <td class="num mono">{formatNumber(r.matchpoints, 2)}</td>
                  <td>{r.name}</td>
                  <td class="muted">table {r.board} · #{r.place}</td>
                  <td class="num">{formatNumber(r.score)}{r.pips_left > 0 && <span class="muted small">{` · ${r.pips_left} pips`}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </div>
  );
}

// A duplicate partnership table lists its seats: each player is compared alone, so partners'
// points differ.
function Pairings({ round, names, partners, duplicate }) {
  const hidden = duplicate && round.state !== 'FINISHED';
  return (
    <section class="card" data-testid="round" data-round={round.number} data-state={round.state}>
      <h3>
        Round {round.number} <span class="muted small">{enumText(round.state)}</span>
        {round.deadline && <span class="muted small" data-testid="round-dates">{` · opens ${formatTime(round.start_time)} · closes ${formatTime(round.deadline)}`}</span>}
      </h3>
      {hidden && <p class="muted small" data-testid="duplicate-hidden">Every table holds the same tiles: the deal, the replays and each hand's comparison are shown once the last table is over.</p>}
      <table class="table">
        <tbody>
          {(round.pairings || []).map((p) => (p.table && p.table.length ? (partners && !duplicate ? <PartnerTableRow key={p.board} p={p} names={names} hidden={hidden} /> : <TableRow key={p.board} p={p} names={names} hidden={hidden} />) : (
            <tr key={p.board} data-testid="pairing" data-board={p.board} data-outcome={p.outcome}>
              <td class="num">{p.board}</td>
              {p.tie && <td class="mono small">{p.tie}</td>}
              <td class={winnerOf(p.outcome) === 'white' ? 'strong' : ''}>{names.get(p.white) || p.white}</td>
              <td class="num mono" data-testid="pairing-result">
                {p.black === 0 ? 'bye' : outcomeText(p.outcome) || <span class="muted">{round.state === 'SCHEDULED' ? 'to play' : 'playing'}</span>}
                {p.games && p.games.length > 1 && <span class="muted small"> ({p.white_wins}-{p.black_wins})</span>}
              </td>
              <td class={winnerOf(p.outcome) === 'black' ? 'strong' : ''}>{p.black === 0 ? '' : names.get(p.black) || p.black}</td>
              <td class="small"><GameLinks games={p.games} /></td>
            </tr>
          )))}
        </tbody>
      </table>
      {duplicate && <Comparisons round={round} names={names} />}
    </section>
  );
}

// The standings; a league's as one table per division.
function Standings({ standings }) {
  if (!standings) return null;
  return (
    <section class="card">
      <h2>Standings <span class="muted small">after round {standings.through_round}</span></h2>
      {divisionTables(standings).map((group) => (
        <StandingsTable key={group.division} standings={standings} rows={group.rows} division={group.division} />
      ))}
    </section>
  );
}

function StandingsTable({ standings, rows, division }) {
  return (
    <>
      {division > 0 && <h3 data-testid="division" data-division={division}>Division {division}</h3>}
      <table class="table" data-testid="standings">
        <thead>
          <tr><th class="num">#</th><th>Entrant</th>{standings.columns.map((c) => <th key={c} class="num">{c}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.entrant} data-testid="standing" data-entrant={row.entrant} data-division={row.division || 0}>
              <td class="num">{row.rank || '—'}</td>
              <td>{row.display_name}{row.withdrawn && <span class="chip">withdrawn</span>}</td>
              {row.values.map((v, i) => <td key={i} class="num">{formatNumber(v, i === 0 && standings.columns[0] === 'PTS' ? 1 : 2)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

// An arena's sheet: each game's points, the doubled ones (on a streak) marked; the latest
// sheetShown of them, as an hour's arena plays hundreds.
const sheetShown = 30;
function Sheet({ sheet }) {
  const games = sheetGames(sheet);
  const from = Math.max(0, games.length - sheetShown);
  return (
    <span class="mono small" data-testid="arena-sheet" title={`${games.length} games`}>
      {from > 0 && <span class="muted">… </span>}
      {games.slice(from).map((g, i) => (
        <span key={from + i} class={g.doubled ? 'strong' : g.result === 'loss' ? 'muted' : ''} data-result={g.result} data-doubled={g.doubled ? 'yes' : 'no'} style={{ marginRight: '0.35em' }}>{g.points}</span>
      ))}
    </span>
  );
}

// An arena: the time left, the leaderboard (points, each game's points, the entrants on a
// streak marked), the games being played and the latest results — read again every two seconds
// like the rest of the page.
function Arena({ page, names, session }) {
  const t = page.tournament;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (t.state !== 'RUNNING') return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [t.state]);
  const clock = arenaClock(t, now);
  const standings = page.standings;
  const column = (name) => (standings ? standings.columns.indexOf(name) : -1);
  const [pts, games, wins, streak] = ['PTS', 'GAMES', 'WINS', 'STREAK'].map(column);
  const { playing, decided } = arenaGames(page.rounds, names);
  return (
    <>
      <section class="card" data-testid="arena">
        <h2>
          Leaderboard{' '}
          <span class="muted small" data-testid="arena-clock">
            {t.state === 'FINISHED' ? 'finished' : clock && clock.left > 0 ? `${clockText(clock.left)} left` : clock ? 'time is up: the last games are finishing' : ''}
          </span>
        </h2>
        <p class="muted small">A win scores 2, a draw 1; after two wins in a row both count double (in bold) until a game is not won.</p>
        {standings && (
          <table class="table" data-testid="leaderboard">
            <thead>
              <tr><th class="num">#</th><th>Entrant</th><th class="num">Points</th><th>Sheet</th><th class="num">Games</th><th class="num">Wins</th></tr>
            </thead>
            <tbody>
              {standings.rows.map((row) => (
                <tr key={row.entrant} data-testid="standing" data-entrant={row.entrant} data-points={row.points}>
                  <td class="num">{row.rank}</td>
                  <td>
                    {row.display_name}
                    {row.values[streak] >= 2 && <span class="chip" data-testid="on-streak" title={`${row.values[streak]} wins in a row`}>streak {row.values[streak]}</span>}
                    {row.withdrawn && <span class="chip">withdrawn</span>}
                  </td>
                  <td class="num strong">{formatNumber(row.values[pts], 0)}</td>
                  <td><Sheet sheet={row.sheet} /></td>
                  <td class="num">{row.values[games]}</td>
                  <td class="num">{row.values[wins]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" data-testid="arena-playing">
        <h2>Playing now <span class="muted small">{playing.length}</span></h2>
        {playing.length === 0 && <p class="muted">Nobody is playing.</p>}
        <ul class="entrants">
          {playing.map((g) => (
            <li key={`${g.round}-${g.board}`} data-testid="arena-game">
              {g.white} <span class="muted">vs</span> {g.black}
              {session.role === 'operator' && g.match && <Link href={`/ops/matches/${resourceId(g.match)}`} class="muted small">{' watch'}</Link>}
            </li>
          ))}
        </ul>
      </section>
      <section class="card" data-testid="arena-results">
        <h2>Latest results</h2>
        <table class="table small">
          <tbody>
            {decided.slice(0, 20).map((g) => (
              <tr key={`${g.round}-${g.board}`} data-testid="arena-result" data-outcome={g.outcome}>
                <td class={winnerOf(g.outcome) === 'white' ? 'strong' : ''}>{g.white}</td>
                <td class="num mono">{outcomeText(g.outcome)}</td>
                <td class={winnerOf(g.outcome) === 'black' ? 'strong' : ''}>{g.black}</td>
                <td>{g.match && <Link href={`/replays/${resourceId(g.match)}`} class="muted">replay</Link>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function Bracket({ rounds, names }) {
  const columns = bracketColumns(rounds);
  if (columns.length === 0) return null;
  return (
    <section class="card">
      <h2>Bracket</h2>
      <div class="bracket" data-testid="bracket">
        {columns.map((column) => (
          <div key={`${column.part}${column.round}`} class="bracket-column">
            <h4>{column.title}</h4>
            {column.ties.map((p) => (
              <div key={p.tie} class="bracket-tie" data-testid="bracket-tie" data-tie={p.tie}>
                <div class={winnerOf(p.outcome) === 'white' ? 'strong' : ''}>{names.get(p.white)} <span class="muted">{p.white_wins}</span></div>
                <div class={winnerOf(p.outcome) === 'black' ? 'strong' : ''}>{names.get(p.black)} <span class="muted">{p.black_wins}</span></div>
              </div>
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}

function Registration({ page, session, reload }) {
  const t = page.tournament;
  const [error, setError] = useState(null);
  const [bot, setBot] = useState('random');
  const id = resourceId(t.name);
  const act = (fn) => async () => {
    setError(null);
    try {
      await fn();
      reload();
    } catch (err) {
      setError(err);
    }
  };
  const mine = (page.entrants || []).find((e) => session.player_id && (e.player_ids || []).includes(session.player_id));
  const team = t.team_size > 1;
  // Until the start, or for a Swiss until its registration close time (late entries), or for
  // an arena until its time is up.
  const closes = t.registration_close_time ? Date.parse(t.registration_close_time) : Infinity;
  const clock = arenaClock(t, Date.now());
  const open =
    t.state === 'REGISTRATION' ||
    (t.state === 'RUNNING' && t.format === 'SWISS' && t.registration_close_time && closes > Date.now()) ||
    (t.state === 'RUNNING' && clock !== null && clock.left > 0 && closes > Date.now());
  return (
    <section class="card" data-testid="registration">
      <h2>Entrants <span class="muted small">{page.entrants.length}</span></h2>
      <ul class="entrants">
        {page.entrants.map((e) => (
          <li key={e.number} data-testid="entrant" data-entrant={e.number}>
            {e.number}. {e.display_name}
            {e.bot && e.bot.kind && <span class="chip">bot</span>}
            {e.withdrawn && <span class="chip">withdrawn</span>}
          </li>
        ))}
      </ul>
      {session.role === 'player' && !team && !mine && open && (
        <button onClick={act(() => post(`/api/tournaments/${id}/entrants`, {}))} data-testid="enter">Enter</button>
      )}
      {t.state !== 'FINISHED' && mine && !mine.withdrawn && (
        <button onClick={act(() => del(`/api/tournaments/${id}/entrants/${mine.number}`))} data-testid="withdraw">Withdraw</button>
      )}
      {session.role === 'operator' && t.state === 'REGISTRATION' && (
        <div class="row">
          <input value={bot} onInput={(e) => setBot(e.target.value)} data-testid="bot-kind" />
          <button onClick={act(() => post(`/api/tournaments/${id}/entrants`, { bot_kind: bot, team }))} data-testid="add-bot">Add bot</button>
          <button onClick={act(() => post(`/api/tournaments/${id}/start`, {}))} data-testid="start">Start</button>
        </div>
      )}
      <ErrorNote error={error} testid="registration-error" />
    </section>
  );
}

export function Tournament({ params, session }) {
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const [tick, setTick] = useState(0);
  const reload = () => setTick((n) => n + 1);
  useEffect(() => {
    let stopped = false;
    get(`/api/tournaments/${encodeURIComponent(params.id)}`).then(
      (p) => !stopped && (setPage(p), setError(null)),
      (e) => !stopped && setError(e),
    );
    return () => {
      stopped = true;
    };
  }, [params.id, tick]);
  useEffect(() => {
    if (!page || !isLive(page.tournament)) return undefined;
    const timer = setTimeout(reload, pollMs);
    return () => clearTimeout(timer);
  }, [page]);
  if (!page) return <main><ErrorNote error={error} />{!error && <p class="muted">Loading…</p>}</main>;
  const t = page.tournament;
  const names = namesOf(page.entrants);
  // Latest first; a league's calendar in date order (its rounds to come are known).
  const rounds = t.format === 'LEAGUE' ? [...(page.rounds || [])] : [...(page.rounds || [])].reverse();
  return (
    <main>
      <h1 data-testid="tournament-title">{t.display_name}</h1>
      <p class="muted" data-testid="tournament-state" data-state={t.state}>
        {gameName(t.game)} · {formatLine(t)} · {enumText(t.state)}
        {t.state === 'RUNNING' && ` · round ${t.current_round}`} · {t.rated ? 'rated' : 'casual'}
      </p>
      <ErrorNote error={error} />
      {t.format === 'ARENA' && <Arena page={page} names={names} session={session} />}
      {t.format !== 'ARENA' && <Standings standings={page.standings} />}
      {t.format === 'PARTNER_ROTATION' && <PairCountsMatrix counts={page.standings && page.standings.pair_counts} names={names} />}
      {t.format === 'KNOCKOUT' && <Bracket rounds={page.rounds} names={names} />}
      {t.format !== 'ARENA' && rounds.map((r) => <Pairings key={r.number} round={r} names={names} partners={t.format === 'PARTNER_ROTATION'} duplicate={!!t.duplicate} />)}
      <Registration page={page} session={session} reload={reload} />
    </main>
  );
}
