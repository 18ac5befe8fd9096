// A player's rating over time from ListRatingHistory's changes (ratings.proto `RatingChange`,
// newest first): the displayed rating (the ordinal, mu - 3 sigma) before the oldest change
// shown, then after each match, oldest first.

const timeOf = (change) => {
  const t = Date.parse(change.match_end_time);
  return Number.isNaN(t) ? null : t;
};

// [{time, rating, change}] oldest first; `change` is null for the starting point. Changes
// without a valid end time are left out (the chart's x axis is time).
export function ratingPoints(changes) {
  const oldestFirst = (changes || []).filter((c) => timeOf(c) !== null).reverse();
  if (oldestFirst.length === 0) return [];
  const start = oldestFirst[0];
  const points = [{ time: timeOf(start), rating: Number(start.ordinal_before), change: null }];
  for (const change of oldestFirst) points.push({ time: timeOf(change), rating: Number(change.ordinal_after), change });
  return points;
}

// Round numbers for an axis from lo to hi: about `count` ticks at a step of 1, 2 or 5 × 10^n.
export function niceTicks(lo, hi, count = 4) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

// Scales points into a box of `width` x `height` (y down) with `pad` units inside each edge.
// `axis` 'time' places them by end time (equal times, matches finished in the same
// millisecond, are spread by their order instead, so every point stays visible); 'order'
// evenly by match, which keeps a burst of quick matches readable.
// Returns {xy: [[x, y]], y(rating), yMin, yMax, tMin, tMax}.
export function layoutChart(points, width, height, pad = 4, axis = 'time') {
  if (points.length === 0) return { xy: [], yMin: 0, yMax: 0, tMin: 0, tMax: 0 };
  const ratings = points.map((p) => p.rating);
  let yMin = Math.min(...ratings);
  let yMax = Math.max(...ratings);
  if (yMax - yMin < 1) {
    const mid = (yMax + yMin) / 2;
    yMin = mid - 0.5;
    yMax = mid + 0.5;
  }
  const tMin = points[0].time;
  const tMax = points[points.length - 1].time;
  const byOrder = axis === 'order' || tMax === tMin;
  const x = (p, i) => {
    const f = byOrder ? (points.length === 1 ? 0.5 : i / (points.length - 1)) : (p.time - tMin) / (tMax - tMin);
    return pad + f * (width - 2 * pad);
  };
  const y = (v) => pad + (1 - (v - yMin) / (yMax - yMin)) * (height - 2 * pad);
  return { xy: points.map((p, i) => [x(p, i), y(p.rating)]), y, yMin, yMax, tMin, tMax };
}
