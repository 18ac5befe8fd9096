// Server-sent events (docs/web.md): each stream sends named events with JSON data. The
// browser's EventSource reconnects by itself and the server answers a reconnect with the
// current state first, so a dropped connection needs nothing from us but a status to show.
//
// Two event names are special:
//   - `error` is both the server's named event (data: {"error": {code, message}}, after which
//     the response ends) and EventSource's own connection-error event (no data). Only the
//     first reaches the `error` handler.
//   - `end` means the stream is over; we close, or EventSource would reconnect and replay it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { sessionEnded } from './api.js';

// Status values: 'connecting', 'open', 'reconnecting', 'ended', 'failed'.
export function subscribe(url, handlers, onStatus = () => {}) {
  const source = new EventSource(url, { withCredentials: true });
  let finished = false;
  const finish = (status) => {
    finished = true;
    source.close();
    onStatus(status);
  };
  onStatus('connecting');
  source.addEventListener('open', () => onStatus('open'));

  for (const [name, handler] of Object.entries(handlers)) {
    if (name === 'error' || name === 'end') continue;
    source.addEventListener(name, (event) => {
      // When the event reached the page, before parsing: pages that time their rendering
      // (render-timing.js) measure from here.
      const arrived = performance.now();
      const data = parseData(event.data);
      if (data !== undefined) handler(data, arrived);
    });
  }
  source.addEventListener('end', (event) => {
    if (handlers.end) handlers.end(parseData(event.data));
    finish('ended');
  });
  source.addEventListener('error', (event) => {
    if (finished) return;
    if (typeof event.data === 'string') {
      const data = parseData(event.data);
      const error = (data && data.error) || { code: 'UNKNOWN', message: 'stream failed' };
      if (handlers.error) handlers.error(error);
      finish('failed');
      // The session is over (its player's token rotated, say): back to the sign-in page.
      if (error.code === 'UNAUTHENTICATED') sessionEnded(error.message);
      return;
    }
    // A connection error: EventSource retries unless the response was not an event stream
    // (401, 403, 404), in which case it has already given up.
    if (source.readyState === EventSource.CLOSED) {
      finish('failed');
      if (handlers.error) handlers.error({ code: 'UNAVAILABLE', message: 'The live connection was refused.' });
    } else {
      onStatus('reconnecting');
    }
  });
  return () => {
    finished = true;
    source.close();
  };
}

function parseData(text) {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Subscribes while the component is mounted and `url` is set; handlers may change on every
// render (the latest ones are called) and get (data, arrivedAt) with the performance.now()
// of the event's arrival. Returns the connection status.
export function useEventStream(url, handlers) {
  const [status, setStatus] = useState(url ? 'connecting' : 'ended');
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!url) return undefined;
    const names = Object.keys(latest.current);
    const proxies = Object.fromEntries(names.map((name) => [name, (data, arrived) => latest.current[name]?.(data, arrived)]));
    return subscribe(url, proxies, setStatus);
  }, [url]);
  return status;
}
