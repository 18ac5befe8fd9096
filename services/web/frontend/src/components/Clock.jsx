// The move clock: counts down locally to the view's deadline (a timestamp from the server),
// re-rendering each quarter second; nothing is asked of the server.
import { useEffect, useState } from 'preact/hooks';

export function Clock({ deadline }) {
  const due = deadline ? Date.parse(deadline) : NaN;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (Number.isNaN(due)) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [due]);
  if (Number.isNaN(due)) return null;
  const left = Math.max(0, Math.ceil((due - now) / 1000));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  return (
    <span class={`clock${left <= 10 ? ' urgent' : ''}`} data-testid="clock" title="time left for this move">
      {text}
    </span>
  );
}
