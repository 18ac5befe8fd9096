// The single page: loads the session, draws the top bar and the page of the current path.
// Pages for operators and pages for players each need that role's session; without one the
// sign-in form is shown in place, and the page follows once signed in. Pages of role 'any'
// (ratings, players, replays: public once signed in) take either session.
import { useEffect, useState } from 'preact/hooks';
import { del, get, setCsrfToken, setUnauthenticatedHandler } from './api.js';
import { TopBar } from './components/TopBar.jsx';
import { Audit } from './pages/Audit.jsx';
import { Ladder, Ladders } from './pages/Ladders.jsx';
import { Lobby } from './pages/Lobby.jsx';
import { Match } from './pages/Match.jsx';
import { Matches } from './pages/Matches.jsx';
import { Overview } from './pages/Overview.jsx';
import { Play } from './pages/Play.jsx';
import { Player } from './pages/Player.jsx';
import { Queues } from './pages/Queues.jsx';
import { Ratings } from './pages/Ratings.jsx';
import { Tournament } from './pages/Tournament.jsx';
import { Tournaments } from './pages/Tournaments.jsx';
import { Replay } from './pages/Replay.jsx';
import { SignIn } from './pages/SignIn.jsx';
import { Link, matchRoute, navigate, useLocation } from './router.js';

const pages = {
  overview: { role: 'operator', Page: Overview },
  matches: { role: 'operator', Page: Matches },
  match: { role: 'operator', Page: Match },
  queues: { role: 'operator', Page: Queues },
  audit: { role: 'operator', Page: Audit },
  ratings: { role: 'any', Page: Ratings },
  player: { role: 'any', Page: Player },
  replay: { role: 'any', Page: Replay },
  lobby: { role: 'player', Page: Lobby },
  play: { role: 'player', Page: Play },
  tournaments: { role: 'any', Page: Tournaments },
  tournament: { role: 'any', Page: Tournament },
  ladders: { role: 'any', Page: Ladders },
  ladder: { role: 'any', Page: Ladder },
};

const allows = (page, role) => page.role === 'any' || page.role === role;

const home = (role) => (role === 'operator' ? '/ops' : '/lobby');

export function App() {
  const { path, query } = useLocation();
  // undefined while GET /api/session is under way, null when signed out.
  const [session, setSession] = useState(undefined);
  // Why the server ended the session, when it did ("signed out: ..."), for the sign-in page.
  const [endedBecause, setEndedBecause] = useState('');

  const adopt = (value) => {
    setCsrfToken(value ? value.csrf_token : '');
    setSession(value);
  };

  useEffect(() => {
    setUnauthenticatedHandler((message) => {
      if (message && message.startsWith('signed out')) setEndedBecause(message);
      adopt(null);
    });
    get('/api/session').then(adopt, () => adopt(null));
  }, []);

  const onSignedIn = (value) => {
    setEndedBecause('');
    adopt(value);
    const page = pages[matchRoute(location.pathname).name];
    if (!page || !allows(page, value.role)) navigate(home(value.role), { replace: true });
  };

  const onSignOut = async () => {
    try {
      await del('/api/session');
    } catch {
      // Signed out here either way; the server's session times out on its own.
    }
    adopt(null);
    navigate('/');
  };

  const route = matchRoute(path);
  const page = pages[route.name];
  const signedInAtStart = session && route.name === 'signin';
  useEffect(() => {
    if (signedInAtStart) navigate(home(session.role), { replace: true });
  }, [signedInAtStart]);

  let body;
  if (session === undefined) {
    body = <p class="muted">Loading…</p>;
  } else if (route.name === 'notfound') {
    body = (
      <section class="card">
        <h1>Not found</h1>
        <p>
          There is no page at <code>{path}</code>. <Link href="/">Go to the start</Link>.
        </p>
      </section>
    );
  } else if (signedInAtStart) {
    body = null;
  } else if (!session) {
    const who = { operator: 'an operator', player: 'a player', any: 'an operator or a player' };
    const notice = endedBecause
      ? `You were ${endedBecause}.`
      : page ? `Sign in as ${who[page.role]} to see this page.` : '';
    body = <SignIn onSignedIn={onSignedIn} notice={notice} />;
  } else if (!allows(page, session.role)) {
    body = (
      <section class="card">
        <h1>Not for {session.role}s</h1>
        <p>
          This page is for {page.role}s. <Link href={home(session.role)}>Back to your start page</Link>.
        </p>
      </section>
    );
  } else {
    body = <page.Page key={path} params={route.params} query={query} session={session} />;
  }

  return (
    <>
      <TopBar session={session} path={path} onSignOut={onSignOut} />
      <main>{body}</main>
    </>
  );
}
