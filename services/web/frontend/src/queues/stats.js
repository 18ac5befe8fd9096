// The queues page's numbers: each queue's settings (GET /api/queues) next to its counters from
// the overview sample (the web service's reading of matchmaking's /metrics, docs/web.md).

// One row per queue that has settings, in the settings' order, then any queue the overview
// knows that the settings list does not (deleted since, or listed before it was created);
// `stats` is null for a queue the latest sample has not seen yet.
export function joinQueues(settings, sampled) {
  const byName = new Map((sampled || []).map((q) => [q.queue, q]));
  const rows = (settings || []).map((queue) => ({ name: queue.name, queue, stats: byName.get(queue.name) || null }));
  const listed = new Set(rows.map((row) => row.name));
  for (const stats of sampled || []) {
    if (!listed.has(stats.queue)) rows.push({ name: stats.queue, queue: null, stats });
  }
  return rows;
}

// The balance histogram as bars: `win_chance` holds per-bucket counts (not Prometheus's
// cumulative ones: the server has subtracted) of the first side's predicted chance, with
// upper bounds `le`; a bar spans from the previous bound (0 for the first) to its own.
// Matches above the last bound are not in the sample (the server drops the +Inf bucket).
export function balanceBars(winChance) {
  let from = 0;
  return (winChance || [])
    .map((bucket) => ({ le: Number(bucket.le), matches: Math.max(0, Number(bucket.matches) || 0) }))
    .filter((bucket) => Number.isFinite(bucket.le))
    .sort((a, b) => a.le - b.le)
    .map(({ le, matches }) => {
      const bar = { from, to: le, matches };
      from = le;
      return bar;
    });
}

// "45–50 %" for a bar's range.
export function barLabel({ from, to }) {
  const pct = (x) => String(Math.round(x * 1000) / 10);
  return `${pct(from)}–${pct(to)} %`;
}

// The share of matches whose chance fell within `margin` of an even 0.5 (bars wholly inside).
export function evenShare(bars, margin = 0.05) {
  const total = bars.reduce((sum, bar) => sum + bar.matches, 0);
  if (total === 0) return null;
  const even = bars.filter((bar) => bar.from >= 0.5 - margin - 1e-9 && bar.to <= 0.5 + margin + 1e-9).reduce((sum, bar) => sum + bar.matches, 0);
  return even / total;
}
