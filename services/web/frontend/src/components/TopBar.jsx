// The dark bar on every page: where to go for this role, who is signed in, sign-out.
import { Link } from '../router.js';

const links = {
  operator: () => [
    ['/ops', 'Overview'],
    ['/ops/matches', 'Matches'],
    ['/ops/queues', 'Queues'],
    ['/tournaments', 'Tournaments'],
    ['/ladders', 'Ladders'],
    ['/ratings', 'Ratings'],
    ['/ops/audit', 'Audit'],
  ],
  player: (session) => [
    ['/lobby', 'Lobby'],
    ['/tournaments', 'Tournaments'],
    ['/ladders', 'Ladders'],
    ['/ratings', 'Ratings'],
    [`/players/${encodeURIComponent(session.player_id)}`, 'My page'],
  ],
};

export function TopBar({ session, path, onSignOut }) {
  return (
    <header class="topbar">
      <Link href={session ? (session.role === 'operator' ? '/ops' : '/lobby') : '/'} class="brand">
        boneyard
      </Link>
      {session && (
        <nav aria-label="pages">
          {(links[session.role] ? links[session.role](session) : []).map(([href, label]) => (
            <Link key={href} href={href} class={path === href ? 'active' : ''} aria-current={path === href ? 'page' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      )}
      <span class="spacer" />
      {session && (
        <span class="who" data-testid="who">
          <span class="chip role">{session.role}</span>
          {session.role === 'player' && <span>{session.display_name || session.player_id}</span>}
          <button type="button" class="ghost" data-testid="sign-out" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      )}
    </header>
  );
}
