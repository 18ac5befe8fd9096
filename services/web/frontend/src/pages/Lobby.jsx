// The lobby: the queues, joining one, and the ticket's search followed live until it is
// matched (then into the match), cancelled or expired. The ticket id is kept in the URL
// (/lobby?ticket=ID) so a reload goes on following the same ticket.
//
// Players may also play as a party (src/parties/): its leader's Join queues everyone, and each
// member's lobby follows the party's new ticket as if it were their own, into their own seat.
import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api.js';
import { ErrorNote } from '../components/ErrorNote.jsx';
import { useEventStream } from '../events.js';
import { enumName, formatSeconds, gameName, resourceId } from '../format.js';
import { PartyCard } from '../parties/PartyCard.jsx';
import { useParty } from '../parties/useParty.js';
import { Link, navigate } from '../router.js';
import { botLabel } from './Ladders.jsx';

export function formatText(format) {
  if (!format) return '';
  if (format.head_to_head) return 'head to head';
  if (format.free_for_all) {
    const { min_players: min, max_players: max } = format.free_for_all;
    return min === max ? `table of ${max}` : `table of ${min}–${max}`;
  }
  if (format.teams) return `${format.teams.teams} teams of ${format.teams.team_size}`;
  return '';
}

const finalStates = ['MATCHED', 'CANCELLED', 'EXPIRED'];

function Waited({ since }) {
  const start = Date.parse(since);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (Number.isNaN(start)) return null;
  return <span class="muted">searching for {formatSeconds(Math.max(0, (now - start) / 1000))}</span>;
}

function TicketPanel({ ticketId, queues, onDone, onState }) {
  const path = `/api/tickets/${encodeURIComponent(ticketId)}`;
  const [ticket, setTicket] = useState(null);
  const [error, setError] = useState(null);
  const state = ticket ? enumName(ticket.state) : '';
  const searching = !ticket || !finalStates.includes(state);

  useEffect(() => {
    get(path).then((t) => setTicket((current) => current || t), setError);
  }, [path]);
  const status = useEventStream(searching ? `${path}/events` : null, { ticket: setTicket, error: setError });

  useEffect(() => {
    onState(state);
    // Replacing the lobby entry, so Back from the match does not bounce into it again.
    if (state === 'MATCHED') navigate(`/play/${encodeURIComponent(ticketId)}`, { replace: true });
  }, [state]);

  const cancel = async () => {
    try {
      setTicket(await del(path));
    } catch (e) {
      setError(e);
    }
  };
  const queue = ticket && queues.find((q) => q.name === ticket.queue);
  return (
    <section class="card ticket" data-testid="ticket" data-state={state}>
      <h2>
        {queue ? queue.display_name : ticket ? ticket.queue : 'Your ticket'}
        {ticket && ticket.party && <span class="muted"> · the party's ticket</span>}
      </h2>
      <p>
        <span class={`chip state-${state.toLowerCase()}`} data-testid="ticket-state">
          {state || '…'}
        </span>{' '}
        {state === 'SEARCHING' && <Waited since={ticket.create_time} />}
        {state === 'MATCHED' && <span>Taking you to your match…</span>}
        {state === 'EXPIRED' && <span>No match was found in time.</span>}
        {status === 'reconnecting' && <span class="muted"> reconnecting…</span>}
      </p>
      <ErrorNote error={error} />
      {searching ? (
        <button type="button" class="secondary" onClick={cancel} data-testid="cancel-ticket">
          Cancel
        </button>
      ) : (
        state !== 'MATCHED' && (
          <button type="button" onClick={onDone} data-testid="back-to-queues">
            Back to the queues
          </button>
        )
      )}
    </section>
  );
}

const followTicket = (name) => navigate(`/lobby?ticket=${encodeURIComponent(resourceId(name))}`, { replace: true });

function joinLabel(role, joiningThis) {
  if (joiningThis) return 'Joining…';
  return role === 'leader' ? 'Join · queue the party' : 'Join';
}

export function Lobby({ query, session }) {
  const ticketId = query.get('ticket') || '';
  const party = useParty(session.player_id, followTicket);
  // A member's Join is the leader's to press; until the party is read, nobody's is.
  const mayJoin = party.role === 'none' || party.role === 'leader';
  const [queues, setQueues] = useState(null);
  const [error, setError] = useState(null);
  const [joining, setJoining] = useState('');
  const [ticketState, setTicketState] = useState('');
  // One search at a time: joining again waits until this ticket is over.
  const searching = ticketId !== '' && !finalStates.includes(ticketState);

  // The ladders' house bots, by level: opponents a person can challenge at any time.
  const [ladders, setLadders] = useState([]);
  useEffect(() => {
    get('/api/queues').then((answer) => setQueues(answer.queues || []), setError);
    get('/api/ladders').then((answer) => setLadders(answer.ladders || []), () => setLadders([]));
  }, []);

  const join = async (queue) => {
    setJoining(queue);
    setError(null);
    try {
      const partyName = party.role === 'leader' ? party.party.name : '';
      const ticket = await post('/api/tickets', { queue, party: partyName });
      // The party's stream will name this ticket too; it is followed here already.
      if (partyName) party.markSeen(ticket.name);
      followTicket(ticket.name);
    } catch (e) {
      setError(e);
    } finally {
      setJoining('');
    }
  };

  return (
    <div class="page-lobby">
      <h1>Lobby</h1>
      <ErrorNote error={error} />
      {ticketId && <TicketPanel key={ticketId} ticketId={ticketId} queues={queues || []} onState={setTicketState} onDone={() => navigate('/lobby', { replace: true })} />}
      <PartyCard party={party} playerId={session.player_id} />
      {party.role === 'member' && (
        <p class="notice" id="party-leader-note" data-testid="party-leader-note">
          You are in a party: your leader queues the party, and its search shows up here.
        </p>
      )}
      {queues === null ? (
        !error && <p class="muted">Loading…</p>
      ) : queues.length === 0 ? (
        <p class="muted">There are no queues yet.</p>
      ) : (
        <ul class="queues" data-testid="queues">
          {queues.map((q) => (
            <li key={q.name} class="card queue" data-testid="queue" data-queue={q.name}>
              <div>
                <h2>{q.display_name || resourceId(q.name)}</h2>
                <p class="muted">
                  {gameName(q.game)} · {formatText(q.format)}
                  {q.rated ? ' · rated' : ' · casual'}
                </p>
              </div>
              <button
                type="button"
                disabled={searching || joining !== '' || !mayJoin}
                aria-describedby={party.role === 'member' ? 'party-leader-note' : undefined}
                onClick={() => join(q.name)}
                data-testid="join"
              >
                {joinLabel(party.role, joining === q.name)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {ladders.length > 0 && (
        <section class="card" data-testid="lobby-ladders">
          <h2>Play a bot</h2>
          <ul class="plain">
            {ladders.map((l) => (
              <li key={l.name}>
                <Link href={`/ladders/${resourceId(l.name)}`}>{l.display_name}</Link>
                <span class="muted">
                  {' '}· {gameName(l.game)} · {(l.house_bots || []).map(botLabel).join(', ')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
