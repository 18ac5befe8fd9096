// The lobby's party card: create a party or join one by its invite code; once in one, its code
// to pass on, who is in it, and leaving. Everything it shows comes from useParty.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { memberRows, normalizeInviteCode } from './party.js';

function JoinForm({ busy, onJoin }) {
  const [code, setCode] = useState('');
  const normalized = normalizeInviteCode(code);
  const submit = (event) => {
    event.preventDefault();
    if (normalized) onJoin(normalized);
  };
  return (
    <form class="party-join" onSubmit={submit}>
      <label for="party-join-code">Join with invite code</label>
      <div class="inline-row">
        <input
          id="party-join-code"
          class="party-code-input"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          maxLength={40}
          data-testid="party-join-code"
        />
        <button type="submit" disabled={busy !== '' || !normalized} data-testid="party-join">
          {busy === 'join' ? 'Joining…' : 'Join party'}
        </button>
      </div>
    </form>
  );
}

// Copies with the clipboard API where the page may (HTTPS or localhost); elsewhere it selects
// the code so Ctrl+C / long-press copies it.
function CopyCode({ code, target }) {
  const [said, setSaid] = useState('');
  const timer = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);
  const say = (text) => {
    setSaid(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSaid(''), 2500);
  };
  const select = () => {
    const range = document.createRange();
    range.selectNodeContents(target.current);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    say('Selected: copy it with Ctrl+C');
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      say('Copied');
    } catch {
      select();
    }
  };
  return (
    <>
      <button type="button" class="secondary" onClick={copy} data-testid="party-copy">
        Copy
      </button>
      <span class="muted" role="status">
        {said}
      </span>
    </>
  );
}

function Members({ party, playerId }) {
  return (
    <ul class="party-members" data-testid="party-members" aria-label="Members">
      {memberRows(party, playerId).map((m) => (
        <li key={m.id} data-testid="party-member" data-player={m.id} data-leader={String(m.leader)} data-you={String(m.you)}>
          <span class="mono">{m.id}</span>
          {m.leader && <span class="chip strong">leader</span>}
          {m.you && <span class="chip">you</span>}
        </li>
      ))}
    </ul>
  );
}

export function PartyCard({ party: p, playerId }) {
  const codeRef = useRef(null);
  if (p.role === 'pending') {
    return (
      <section class="card party" data-testid="party-card" data-state="loading" aria-busy="true">
        <h2>Your party</h2>
        <p class="muted">Loading your party…</p>
      </section>
    );
  }
  if (!p.party) {
    return (
      <section class="card party" data-testid="party-card" data-state="none">
        <h2>Party</h2>
        <p class="muted">Play together: create a party and pass its invite code on, or join a friend's.</p>
        {p.notice && <p class="notice">{p.notice}</p>}
        <div class="party-start">
          <button type="button" onClick={p.create} disabled={p.busy !== ''} data-testid="party-create">
            {p.busy === 'create' ? 'Creating…' : 'Create party'}
          </button>
          <JoinForm busy={p.busy} onJoin={p.join} />
        </div>
        <ErrorNote error={p.error} />
      </section>
    );
  }
  const { party } = p;
  return (
    <section class="card party" data-testid="party-card" data-state={p.role} data-party={party.name}>
      <div class="party-head">
        <h2>Your party</h2>
        {p.status === 'reconnecting' && <span class="muted">reconnecting…</span>}
      </div>
      <p class="party-code-label muted">
        Invite code: whoever enters it joins
      </p>
      <div class="party-code-row">
        <code class="party-code" ref={codeRef} data-testid="party-code">
          {party.invite_code}
        </code>
        <CopyCode code={party.invite_code} target={codeRef} />
      </div>
      <Members party={party} playerId={playerId} />
      <p class="muted">
        {p.role === 'leader' ? 'You lead it: Join on a queue below queues the whole party.' : 'Your leader picks the queue; the search shows up here for everyone.'}
      </p>
      <ErrorNote error={p.error} />
      <button type="button" class="secondary" onClick={p.leave} disabled={p.busy !== ''} data-testid="party-leave">
        {p.busy === 'leave' ? 'Leaving…' : 'Leave party'}
      </button>
    </section>
  );
}
