// The party the signed-in player is in, live: remembered across reloads, followed through
// GET /api/parties/{id}/events, and created, joined and left from here. A new ticket of the
// party (its leader queued it) is handed to `onNewTicket` once, for the page to follow.
import { useEffect, useRef, useState } from 'preact/hooks';
import { del, get, post } from '../api.js';
import { subscribe } from '../events.js';
import {
  browserStorage,
  forgetParty,
  isMember,
  markTicketSeen,
  meansGone,
  partyPath,
  partyRole,
  rememberParty,
  rememberedParty,
  seenTickets,
  ticketToFollow,
} from './party.js';

// After the stream failed but the party is still there: wait this long before listening again,
// so a server that keeps refusing is not asked in a tight loop.
const retryMs = 5000;

const goneNotice = 'You are no longer in the party: it ended, or you left it elsewhere.';

export function useParty(playerId, onNewTicket) {
  const storage = browserStorage();
  const [name, setName] = useState(() => rememberedParty(storage, playerId));
  const [party, setParty] = useState(null);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState('');
  const [status, setStatus] = useState('ended');
  const [busy, setBusy] = useState('');
  const [attempt, setAttempt] = useState(0);
  // The stream's handlers outlive a render: they read these instead of stale closures.
  const shown = useRef(null);
  shown.current = party;
  const follow = useRef(onNewTicket);
  follow.current = onNewTicket;

  const forget = (why) => {
    forgetParty(storage, playerId);
    setName('');
    setParty(null);
    setError(null);
    setNotice(why);
  };

  const adopt = (next) => {
    if (!isMember(next, playerId)) {
      forget(shown.current ? goneNotice : '');
      return;
    }
    rememberParty(storage, playerId, next.name);
    setName(next.name);
    setParty(next);
    const ticket = ticketToFollow(next, seenTickets(storage, playerId));
    if (ticket) {
      markTicketSeen(storage, playerId, ticket);
      follow.current(ticket);
    }
  };

  // A party just created or joined: a ticket it already names was made before this player was
  // in it and is not theirs to follow.
  const enter = (next) => {
    markTicketSeen(storage, playerId, next.ticket);
    adopt(next);
  };

  useEffect(() => {
    if (!name) return undefined;
    const path = partyPath(name);
    let live = true;
    let timer = 0;
    const stop = subscribe(
      `${path}/events`,
      {
        party: (next) => {
          setError(null);
          adopt(next);
        },
        // The stream is over after any error. The server's `error` says the player left or the
        // party ended, but a refused connection says nothing, so ask once more to tell them apart.
        error: async (streamError) => {
          try {
            const now = await get(path);
            if (!live) return;
            adopt(now);
            if (!isMember(now, playerId)) return;
            setError(streamError);
          } catch (e) {
            if (!live) return;
            if (meansGone(e)) {
              forget(shown.current ? goneNotice : '');
              return;
            }
            setError(e);
          }
          timer = setTimeout(() => setAttempt((n) => n + 1), retryMs);
        },
      },
      setStatus,
    );
    return () => {
      live = false;
      clearTimeout(timer);
      stop();
    };
  }, [name, attempt]);

  const act = (label, work) => async (...args) => {
    setBusy(label);
    setError(null);
    setNotice('');
    try {
      await work(...args);
    } catch (e) {
      setError(e);
    } finally {
      setBusy('');
    }
  };

  const create = act('create', async () => enter(await post('/api/parties', {})));
  const join = act('join', async (code) => enter(await post('/api/parties/join', { invite_code: code })));
  const leave = act('leave', async () => {
    try {
      await del(partyPath(name));
    } catch (e) {
      // Already out of it: nothing left to leave.
      if (!meansGone(e)) throw e;
    }
    forget('');
  });

  // Until the first answer arrives the role is not known; the lobby waits with its Join buttons.
  const role = party ? partyRole(party, playerId) : name && !error ? 'pending' : 'none';
  return {
    name,
    party,
    role,
    error,
    notice,
    status,
    busy,
    create,
    join,
    leave,
    markSeen: (ticket) => markTicketSeen(storage, playerId, ticket),
  };
}
