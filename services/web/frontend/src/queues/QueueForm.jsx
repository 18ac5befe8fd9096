// Creating a queue (POST /api/queues) or changing one (PATCH /api/queues/{id} with the mask
// of the fields changed). The form checks only that its text can be written as a request;
// the rules of what a queue may be are the matchmaking service's, and its refusal is shown
// as it wrote it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { patch, post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { gameName, knownGames } from '../format.js';
import { formats, queueFromForm, timeoutPolicies, updateMask } from './settings.js';

const formatLabels = { head_to_head: 'head to head', free_for_all: 'free for all', teams: 'teams' };
const policyLabels = { AUTO_PLAY_DEFAULT_BOT: 'a bot moves', FORFEIT: 'seat forfeits' };

// queue-id, queue-name, then queue-<field> with dashes: queue-per-move, queue-bot-after, …
const testid = (key) => ({ queue_id: 'queue-id', display_name: 'queue-name' })[key] || `queue-${key.replace(/_/g, '-')}`;

function Field({ label, hint, children }) {
  return (
    <label>
      {label}
      {children}
      {hint && <span class="hint">{hint}</span>}
    </label>
  );
}

// `editing`: the form state of the queue being changed (its `queue_id` set), or null to create.
export function QueueForm({ editing, onSaved, onCancel }) {
  const [form, setForm] = useState(editing);
  // Not a disabled button while a request is under way (that would drop keyboard focus): a
  // second submit meanwhile is ignored instead.
  const busy = useRef(false);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState('');
  const first = useRef(null);
  const isEdit = editing.mode === 'edit';

  // A new queue to edit (or back to creating, or the saved settings after a change): start
  // from its settings. Focus moves to the form only when another queue is picked.
  const shownId = useRef('');
  const mounted = useRef(false);
  useEffect(() => {
    // The first run is the mount: the form already starts from `editing`.
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    setForm(editing);
    setError(null);
    const id = editing.mode === 'edit' ? editing.queue_id : '';
    if (id && id !== shownId.current && first.current) first.current.focus({ preventScroll: true });
    shownId.current = id;
  }, [editing]);

  const set = (key) => (event) => {
    const target = event.currentTarget;
    const value = target.type === 'checkbox' ? target.checked : target.value;
    setForm((current) => ({ ...current, [key]: value }));
    setSaved('');
  };
  const text = (key, props = {}) => <input value={form[key]} onInput={set(key)} data-testid={testid(key)} {...props} />;
  const check = (key, label) => (
    <label class="check">
      <input type="checkbox" checked={form[key]} onChange={set(key)} data-testid={testid(key)} /> {label}
    </label>
  );

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    setSaved('');
    let queue;
    try {
      queue = queueFromForm(form);
    } catch (e) {
      setError(e);
      return;
    }
    if (busy.current) return;
    busy.current = true;
    try {
      let answer;
      if (isEdit) {
        const mask = updateMask(queueFromForm(editing), queue);
        if (!mask) {
          setSaved('Nothing changed.');
          return;
        }
        const id = form.queue_id;
        answer = await patch(`/api/queues/${encodeURIComponent(id)}`, { queue: { ...queue, name: `queues/${id}` }, update_mask: mask });
        setSaved(`Saved ${mask.replace(/,/g, ', ')}.`);
      } else {
        answer = await post('/api/queues', { queue_id: form.queue_id.trim(), queue });
        setSaved(`Created ${answer.name || form.queue_id}.`);
      }
      onSaved(answer);
    } catch (e) {
      setError(e);
    } finally {
      busy.current = false;
    }
  };

  return (
    <form class="card queue-form" onSubmit={submit} data-testid="queue-form" data-mode={isEdit ? 'edit' : 'create'} aria-labelledby="queue-form-title">
      <h2 id="queue-form-title">{isEdit ? `Change queue ${form.queue_id}` : 'New queue'}</h2>
      <div class="form-grid">
        <Field label="Queue id" hint={isEdit ? 'never changes' : 'letters, digits, - and _'}>
          {text('queue_id', { readOnly: isEdit, autocomplete: 'off', spellcheck: false })}
        </Field>
        <Field label="Name shown to players">{text('display_name', { ref: first, maxLength: 100 })}</Field>
        <Field label="Game" hint={isEdit ? 'never changes' : ''}>
          <select value={form.game} onChange={set('game')} disabled={isEdit} data-testid="queue-game">
            {knownGames.map((game) => (
              <option key={game} value={game}>
                {gameName(game)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Format">
          <select value={form.format} onChange={set('format')} data-testid="queue-format">
            {formats.map((kind) => (
              <option key={kind} value={kind}>
                {formatLabels[kind]}
              </option>
            ))}
          </select>
        </Field>
        {form.format === 'free_for_all' && (
          <>
            <Field label="Fewest players">{text('min_players', { inputMode: 'numeric' })}</Field>
            <Field label="Most players">{text('max_players', { inputMode: 'numeric' })}</Field>
          </>
        )}
        {form.format === 'teams' && (
          <>
            <Field label="Teams">{text('teams', { inputMode: 'numeric' })}</Field>
            <Field label="Players per team">{text('team_size', { inputMode: 'numeric' })}</Field>
          </>
        )}
        <Field label="Move clock" hint="per move, e.g. 30s; empty: no clock">
          {text('per_move', { placeholder: 'no clock' })}
        </Field>
        <Field label="On timeout">
          <select value={form.timeout_policy} onChange={set('timeout_policy')} disabled={!String(form.per_move).trim()} data-testid="queue-timeout-policy">
            {timeoutPolicies.map((policy) => (
              <option key={policy} value={policy}>
                {policyLabels[policy]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Longest search" hint="e.g. 5m; empty: no limit">
          {text('max_wait', { placeholder: 'no limit' })}
        </Field>
        <Field label="Rules" hint="name=value, … e.g. target=150">
          {text('rules', { placeholder: "the game's defaults", spellcheck: false })}
        </Field>
      </div>

      <fieldset>
        <legend>Rating</legend>
        {check('rated', 'Rated: results count for ratings')}
        <div class="form-grid">
          <Field label="Window at once" hint="mu apart">
            {text('window_initial', { inputMode: 'decimal' })}
          </Field>
          <Field label="Widens per second">{text('window_per_second', { inputMode: 'decimal' })}</Field>
          <Field label="Widest">{text('window_max', { inputMode: 'decimal' })}</Field>
        </div>
      </fieldset>

      <fieldset>
        <legend>Bots</legend>
        {check('bot_fill', 'Fill empty seats with bots')}
        <div class="form-grid">
          <Field label="After waiting" hint="e.g. 5s">
            {text('bot_after', { disabled: !form.bot_fill })}
          </Field>
          <Field label="Bot kind" hint="empty: the game's default">
            {text('bot_kind', { disabled: !form.bot_fill, placeholder: 'default', spellcheck: false })}
          </Field>
        </div>
        {check('bots_rated', 'Matches with bots count for ratings')}
        {form.bot_levels && form.bot_levels.length > 0 && <p class="muted">Bot levels by skill: {form.bot_levels.map((l) => `${l.min_skill}: ${l.bot_kind}`).join(', ')} (kept as they are).</p>}
      </fieldset>

      <div class="form-actions">
        {isEdit ? (
          <button type="submit" data-testid="queue-save">
            Save changes
          </button>
        ) : (
          <button type="submit" data-testid="queue-create">
            Create queue
          </button>
        )}
        {isEdit && (
          <button type="button" class="secondary" onClick={onCancel} data-testid="queue-cancel">
            New queue instead
          </button>
        )}
        {saved && (
          <span class="saved" role="status" data-testid="queue-saved">
            {saved}
          </span>
        )}
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
