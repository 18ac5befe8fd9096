// Handling the views a stream sends. Sequence numbers are int64, which protobuf JSON writes
// as strings ("12"), so they are compared as numbers here and nowhere else.

export function sequenceOf(view) {
  return view ? Number(view.sequence) || 0 : -1;
}

// A reconnecting stream starts again with the current view, and an action's answer may race
// the stream's copy of the same view: keep whichever is newest.
export function newer(current, next) {
  return !current || sequenceOf(next) >= sequenceOf(current) ? next : current;
}

// Appends a view's last event to a log unless it is already there (a reconnect repeats the
// current view); keeps the newest `limit` entries.
export function appendEvent(log, view, limit = 500) {
  const event = view && view.last_event;
  if (!event) return log;
  const seq = Number(event.sequence);
  if (log.length > 0 && Number(log[log.length - 1].sequence) >= seq) return log;
  const next = [...log, event];
  return next.length > limit ? next.slice(next.length - limit) : next;
}
