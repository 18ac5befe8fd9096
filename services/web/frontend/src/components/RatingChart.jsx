// A player's displayed rating over time as an SVG line: y the rating with round-number grid
// lines, x either the matches in order (the default: quick matches come in bursts, which a
// time axis squeezes into one vertical smear) or their end times, the first and last labelled;
// a dot per match (its tooltip says when, the rank and the change). Its coordinates are the element's own pixels (the width
// is measured), so labels keep their size on a phone instead of shrinking with a viewBox.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatTime } from '../format.js';
import { layoutChart, niceTicks } from '../ratings/history.js';

const H = 220;
const left = 40; // room for the y labels
const bottom = 22; // room for the x labels

const short = (t) => new Date(t).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

function useWidth(fallback) {
  const ref = useRef(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setWidth(Math.max(240, Math.round(element.clientWidth)) || fallback);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const axes = [
  ['order', 'by match'],
  ['time', 'by time'],
];

export function RatingChart({ points, label }) {
  const [ref, W] = useWidth(640);
  const [axis, setAxis] = useState('order');
  // The box is always there, so its width is measured from the first render.
  if (points.length < 2) {
    return (
      <div class="rating-chart-box" ref={ref}>
        <p class="muted">Not enough rated matches for a chart.</p>
      </div>
    );
  }
  return (
    <div class="rating-chart-box" ref={ref}>
      <div class="axis-choice" role="group" aria-label="x axis">
        {axes.map(([value, text]) => (
          <button key={value} type="button" class="ghost" aria-pressed={String(axis === value)} onClick={() => setAxis(value)} data-testid={`chart-axis-${value}`}>
            {text}
          </button>
        ))}
      </div>
      <Chart points={points} label={label} W={W} axis={axis} />
    </div>
  );
}

function Chart({ points, label, W, axis }) {
  const plotW = W - left - 8;
  const plotH = H - bottom - 8;
  const chart = layoutChart(points, plotW, plotH, 6, axis);
  const ticks = niceTicks(chart.yMin, chart.yMax, 4);
  const at = ([x, y]) => `${(left + x).toFixed(1)},${(8 + y).toFixed(1)}`;
  const first = points[0];
  const last = points[points.length - 1];
  const dots = points.length <= 120;
  return (
    <svg class="rating-chart" data-testid="rating-chart" data-points={points.length} data-axis={axis} width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${label}: from ${first.rating.toFixed(1)} to ${last.rating.toFixed(1)} over ${points.length - 1} matches`}>
      {ticks.map((v) => {
        const y = 8 + chart.y(v);
        return (
          <g key={v} class="grid">
            <line x1={left} x2={W - 8} y1={y} y2={y} />
            <text x={left - 6} y={y} text-anchor="end" dominant-baseline="central">
              {Number.isInteger(v) ? v : v.toFixed(1)}
            </text>
          </g>
        );
      })}
      <polyline class="line" points={chart.xy.map(at).join(' ')} />
      {dots &&
        chart.xy.map((xy, i) => {
          const p = points[i];
          const [x, y] = at(xy).split(',');
          const delta = p.change ? p.rating - Number(p.change.ordinal_before) : 0;
          return (
            <circle key={i} cx={x} cy={y} r="3.5" class={`dot${p.change ? (delta >= 0 ? ' up' : ' down') : ''}`}>
              <title>
                {p.change
                  ? `${formatTime(p.time)}: ${p.rating.toFixed(2)} (${delta >= 0 ? '+' : ''}${delta.toFixed(2)}), rank ${p.change.rank}`
                  : `before: ${p.rating.toFixed(2)}`}
              </title>
            </circle>
          );
        })}
      <text x={left} y={H - 4} class="tick">
        {short(first.time)}
      </text>
      <text x={W - 8} y={H - 4} class="tick" text-anchor="end">
        {short(last.time)}
      </text>
    </svg>
  );
}
