// The tournaments (GET /api/tournaments): each event's game, format, state and entrants, a link
// to its page; operators also get the form that creates one (POST /api/tournaments, audited).
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { enumText, gameName, knownGames, resourceId } from '../format.js';
import { Link, navigate } from '../router.js';
import { createBody, durationMs, spanText } from '../tournaments/page.js';

export function formatLine(t) {
  const parts = [enumText(t.format)];
  if (t.team_size > 1) parts.push(`teams of ${t.team_size}`);
  if (t.format === 'ARENA') {
    // An arena's rounds are its pairing passes, not a length.
    parts.push(`${Math.round(durationMs(t.duration) / 60000)} min`);
  } else if (t.format === 'SWISS' || t.rounds) {
    parts.push(`${t.rounds} round${t.rounds === 1 ? '' : 's'}`);
  }
  if (t.format === 'LEAGUE' && t.league) {
    if (t.league.division_size) parts.push(`divisions of ${t.league.division_size}`);
    parts.push(`a round every ${spanText(durationMs(t.league.round_interval))}`);
  }
  if (t.best_of > 1) parts.push(`best of ${t.best_of}`);
  if (t.double_round_robin) parts.push('double');
  if (t.table_size) parts.push(`tables of ${t.min_table_size && t.min_table_size < t.table_size ? `${t.min_table_size}-` : ''}${t.table_size}`);
  if (t.duplicate) parts.push('duplicate');
  return parts.join(' · ');
}

function CreateForm({ onCreated }) {
  const [form, setForm] = useState({ id: '', name: '', game: 'muggins', format: 'SWISS', rounds: 3, team_size: 1, best_of: 1, tiebreaks: 'BH,SB', minutes: 30, interval_hours: 168, division_size: 8, promotion: 1 });
  const [error, setError] = useState(null);
  const set = (key) => (e) => setForm({ ...form, [key]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const made = await post('/api/tournaments', createBody(form));
      onCreated(made);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="card" onSubmit={submit} data-testid="tournament-form">
      <h2>New tournament</h2>
      <label>Id <input value={form.id} onInput={set('id')} data-testid="tournament-id" required /></label>
      <label>Name <input value={form.name} onInput={set('name')} data-testid="tournament-name" required /></label>
      <label>
        Game{' '}
        <select value={form.game} onChange={set('game')} data-testid="tournament-game">
          {knownGames.map((g) => (
            <option key={g} value={g}>{gameName(g)}</option>
          ))}
        </select>
      </label>
      <label>
        Format{' '}
        <select value={form.format} onChange={set('format')} data-testid="tournament-format">
          <option value="SWISS">Swiss</option>
          <option value="ROUND_ROBIN">Round robin</option>
          <option value="KNOCKOUT">Knockout</option>
          <option value="PARTNER_ROTATION">Partner rotation</option>
          <option value="ARENA">Arena</option>
          <option value="LEAGUE">League</option>
        </select>
      </label>
      {form.format === 'SWISS' && <label>Rounds <input type="number" min="1" max="99" value={form.rounds} onInput={set('rounds')} data-testid="tournament-rounds" /></label>}
      {form.format === 'PARTNER_ROTATION' && <label title="0: the schedule's own length (everyone partners everyone)">Rounds <input type="number" min="0" max="100" value={form.rounds} onInput={set('rounds')} data-testid="tournament-rounds" /></label>}
      {form.format === 'ARENA' && <label title="Finishers are paired again until the time is up">Minutes <input type="number" min="1" max="1440" value={form.minutes} onInput={set('minutes')} data-testid="tournament-minutes" /></label>}
      {form.format === 'LEAGUE' && <label title="From one round's opening to the next's; a round closes when the next opens">Round every (hours) <input type="number" min="1" max="8784" value={form.interval_hours} onInput={set('interval_hours')} data-testid="tournament-interval" /></label>}
      {form.format === 'LEAGUE' && <label title="The most entrants in a division (0: one division)">Division size <input type="number" min="0" max="64" value={form.division_size} onInput={set('division_size')} data-testid="tournament-division-size" /></label>}
      {form.format === 'LEAGUE' && <label title="Promoted and relegated between neighbouring divisions, into the next season">Promotion <input type="number" min="0" max="32" value={form.promotion} onInput={set('promotion')} /></label>}
      {form.format === 'KNOCKOUT' && <label>Best of <input type="number" min="1" max="9" step="2" value={form.best_of} onInput={set('best_of')} /></label>}
      {(form.format === 'ROUND_ROBIN' || form.format === 'LEAGUE') && <label><input type="checkbox" checked={!!form.double} onChange={set('double')} /> double</label>}
      {(form.format === 'ROUND_ROBIN' || form.format === 'SWISS') && <label title="Seats per table, for the games more than two play alone (0: one against one)">Table size <input type="number" min="0" max="8" value={form.table_size || 0} onInput={set('table_size')} data-testid="tournament-table-size" /></label>}
      {(form.format === 'PARTNER_ROTATION' || ((form.format === 'ROUND_ROBIN' || form.format === 'SWISS') && Number(form.table_size) > 0)) && (
        <label title="Every table of a round dealt the same tiles; each hand's holders compared"><input type="checkbox" checked={!!form.duplicate} onChange={set('duplicate')} data-testid="tournament-duplicate" /> duplicate deals</label>
      )}
      {form.format !== 'PARTNER_ROTATION' && <label>Team size <input type="number" min="1" max="4" value={form.team_size} onInput={set('team_size')} /></label>}
      {form.format !== 'ARENA' && <label>Tie-breaks <input value={form.tiebreaks} onInput={set('tiebreaks')} placeholder="BH,SB" data-testid="tournament-tiebreaks" /></label>}
      <label><input type="checkbox" checked={!!form.rated} onChange={set('rated')} /> rated</label>
      <button type="submit" data-testid="tournament-create">Create</button>
      <ErrorNote error={error} testid="tournament-form-error" />
    </form>
  );
}

export function Tournaments({ session }) {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    get('/api/tournaments').then((r) => setList(r.tournaments || []), setError);
  }, []);
  return (
    <main>
      <h1>Tournaments</h1>
      <ErrorNote error={error} />
      {list && list.length === 0 && <p class="muted">No tournaments yet.</p>}
      {list && list.length > 0 && (
        <table class="table" data-testid="tournaments">
          <thead>
            <tr><th>Event</th><th>Game</th><th>Format</th><th>State</th><th class="num">Entrants</th></tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <tr key={t.name} data-testid="tournament-row" data-tournament={t.name}>
                <td data-label="Event"><Link href={`/tournaments/${resourceId(t.name)}`}>{t.display_name}</Link></td>
                <td data-label="Game">{gameName(t.game)}</td>
                <td data-label="Format">{formatLine(t)}</td>
                <td data-label="State">{enumText(t.state)}{t.state === 'RUNNING' ? `, round ${t.current_round}` : ''}</td>
                <td class="num" data-label="Entrants">{t.entrant_count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {session && session.role === 'operator' && <CreateForm onCreated={(t) => navigate(`/tournaments/${resourceId(t.name)}`)} />}
    </main>
  );
}
