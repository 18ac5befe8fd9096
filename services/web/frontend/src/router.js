// Path-based routing with the history API: the server answers index.html for every page path
// (docs/web.md), so a reload or a shared link opens the same page.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const routes = [
  ['/', 'signin'],
  ['/ops', 'overview'],
  ['/ops/matches', 'matches'],
  ['/ops/matches/:id', 'match'],
  ['/ops/queues', 'queues'],
  ['/ops/audit', 'audit'],
  ['/ratings', 'ratings'],
  ['/players/:id', 'player'],
  ['/replays/:matchId', 'replay'],
  ['/lobby', 'lobby'],
  ['/play/:ticketId', 'play'],
  ['/tournaments', 'tournaments'],
  ['/tournaments/:id', 'tournament'],
  ['/ladders', 'ladders'],
  ['/ladders/:id', 'ladder'],
  ['/challenges/:challengeId', 'play'],
];

// Returns {name, params} for a path, or {name: 'notfound'}.
export function matchRoute(path) {
  const parts = split(path);
  for (const [pattern, name] of routes) {
    const want = split(pattern);
    if (want.length !== parts.length) continue;
    const params = {};
    const ok = want.every((segment, i) => {
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(parts[i]);
        return true;
      }
      return segment === parts[i];
    });
    if (ok) return { name, params };
  }
  return { name: 'notfound', params: {} };
}

function split(path) {
  return path.split('/').filter(Boolean);
}

const changed = 'boneyard:navigate';

export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(changed));
}

// The current location; re-renders on navigate() and on back/forward.
export function useLocation() {
  const read = () => ({ path: location.pathname, query: new URLSearchParams(location.search) });
  const [where, setWhere] = useState(read);
  useEffect(() => {
    const update = () => setWhere(read());
    window.addEventListener('popstate', update);
    window.addEventListener(changed, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(changed, update);
    };
  }, []);
  return where;
}

// An <a> that navigates in the page; a modified click (new tab, etc.) is left to the browser.
export function Link({ href, children, ...rest }) {
  const onClick = (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return h('a', { ...rest, href, onClick }, children);
}
