// Render timing for benchmarks: for each SSE `view` a page adopts, the milliseconds from the
// event's arrival (performance.now() first thing in the EventSource listener, before JSON
// parsing) to the end of Preact's commit of the render it caused, measured in a
// useLayoutEffect on the view. That is the honest end point for "committed to the DOM": layout
// effects run right after Preact has applied the DOM changes, before the browser computes
// style and layout and paints. A requestAnimationFrame callback would add the wait for the next
// frame (up to a frame interval, and nothing at all in a hidden tab), which is the display's
// cadence rather than the page's cost. Several events arriving before one render each get
// their own time to that render's commit. Always on, no UI: the times go to
// window.__boneyardRenderTimes (read it, or replace it with [] to start a run afresh).
import { useCallback, useLayoutEffect, useRef } from 'preact/hooks';

export const renderTimesCap = 10000;

// Appends `ms` keeping at most `cap` entries, dropping the oldest: a long session keeps its
// latest 10,000 renders.
export function pushCapped(list, ms, cap = renderTimesCap) {
  list.push(ms);
  if (list.length > cap) list.splice(0, list.length - cap);
  return list;
}

function record(ms) {
  if (typeof window === 'undefined') return;
  if (!Array.isArray(window.__boneyardRenderTimes)) window.__boneyardRenderTimes = [];
  pushCapped(window.__boneyardRenderTimes, ms);
}

// Returns `arrived(t)`: call it with an event's arrival time when the event changes `value`
// (the page's view state); the time is recorded once the render of that value is committed.
export function useRenderTiming(value) {
  const pending = useRef([]);
  useLayoutEffect(() => {
    if (pending.current.length === 0) return;
    const now = performance.now();
    for (const arrived of pending.current) record(now - arrived);
    pending.current = [];
  }, [value]);
  return useCallback((arrived) => {
    if (typeof arrived === 'number') pending.current.push(arrived);
  }, []);
}
