// Sign-in: an operator's token, or a player's id and token; and registration, which creates a
// player (where matchmaking allows it), shows the new token once and signs in with it.
import { useState } from 'preact/hooks';
import { post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { useSubmit } from '../components/useSubmit.js';

function OperatorForm({ onSignedIn }) {
  const [token, setToken] = useState('');
  const form = useSubmit(async () => onSignedIn(await post('/api/session', { role: 'operator', token })));
  return (
    <form class="card" onSubmit={form.submit} data-testid="operator-form">
      <h2>Operator</h2>
      <label>
        Operator token
        <input type="password" autocomplete="current-password" required value={token} onInput={(e) => setToken(e.currentTarget.value)} data-testid="operator-token" />
      </label>
      <button type="submit" disabled={form.busy} data-testid="operator-sign-in">
        Sign in
      </button>
      <ErrorNote error={form.error} />
    </form>
  );
}

function PlayerForm({ onSignedIn }) {
  const [playerId, setPlayerId] = useState('');
  const [token, setToken] = useState('');
  const form = useSubmit(async () => onSignedIn(await post('/api/session', { role: 'player', player_id: playerId.trim(), token })));
  return (
    <form class="card" onSubmit={form.submit} data-testid="player-form">
      <h2>Player</h2>
      <label>
        Player id
        <input autocomplete="username" required value={playerId} onInput={(e) => setPlayerId(e.currentTarget.value)} data-testid="player-id" />
      </label>
      <label>
        Token
        <input type="password" autocomplete="current-password" required value={token} onInput={(e) => setToken(e.currentTarget.value)} data-testid="player-token" />
      </label>
      <button type="submit" disabled={form.busy} data-testid="player-sign-in">
        Sign in
      </button>
      <ErrorNote error={form.error} />
    </form>
  );
}

function RegisterForm({ onSignedIn }) {
  const [playerId, setPlayerId] = useState('');
  const [displayName, setDisplayName] = useState('');
  // After registering: the token to show once and the session it signed in.
  const [created, setCreated] = useState(null);
  const form = useSubmit(async () => {
    const id = playerId.trim();
    const answer = await post('/api/players', { player_id: id, display_name: displayName.trim() || id });
    const session = await post('/api/session', { role: 'player', player_id: id, token: answer.token });
    setCreated({ token: answer.token, session });
  });
  if (created) {
    return (
      <section class="card" data-testid="registered">
        <h2>Registered</h2>
        <p>This is your token. It is shown only now: keep it to sign in again.</p>
        <input class="token" readonly value={created.token} onFocus={(e) => e.currentTarget.select()} data-testid="new-token" />
        <button type="button" onClick={() => onSignedIn(created.session)} data-testid="continue">
          Continue to the lobby
        </button>
      </section>
    );
  }
  return (
    <form class="card" onSubmit={form.submit} data-testid="register-form">
      <h2>New player</h2>
      <label>
        Player id
        <input required value={playerId} onInput={(e) => setPlayerId(e.currentTarget.value)} data-testid="register-id" />
      </label>
      <label>
        Display name
        <input value={displayName} placeholder="as your id" onInput={(e) => setDisplayName(e.currentTarget.value)} data-testid="register-name" />
      </label>
      <button type="submit" disabled={form.busy} data-testid="register-button">
        Register
      </button>
      <ErrorNote error={form.error} />
    </form>
  );
}

export function SignIn({ onSignedIn, notice }) {
  return (
    <div class="page-signin">
      <h1>Sign in</h1>
      {notice && <p class="notice">{notice}</p>}
      <div class="cards">
        <PlayerForm onSignedIn={onSignedIn} />
        <RegisterForm onSignedIn={onSignedIn} />
        <OperatorForm onSignedIn={onSignedIn} />
      </div>
    </div>
  );
}
