// The balance of a queue's formed matches: a bar per bucket of the first side's predicted win
// chance. Bars are drawn at equal widths (the buckets are narrow near 50 % and wide at the
// edges, so widths to scale would hide the middle, which is what an operator looks at); the
// buckets that end at or start from 50 % are drawn darker.
import { balanceBars, barLabel } from '../queues/stats.js';

export function BalanceChart({ winChance, queue, width = 176, height = 52 }) {
  const bars = balanceBars(winChance);
  const total = bars.reduce((sum, bar) => sum + bar.matches, 0);
  if (bars.length === 0 || total === 0) {
    return (
      <span class="muted balance-empty" data-testid="balance-chart" data-queue={queue} data-matches="0">
        no matches yet
      </span>
    );
  }
  const max = Math.max(...bars.map((bar) => bar.matches));
  const plot = height - 14;
  const step = width / bars.length;
  const described = bars
    .filter((bar) => bar.matches > 0)
    .map((bar) => `${barLabel(bar)}: ${bar.matches}`)
    .join(', ');
  const first = bars[0];
  const last = bars[bars.length - 1];
  const half = bars.findIndex((bar) => bar.to === 0.5);
  return (
    <svg
      class="balance-chart"
      data-testid="balance-chart"
      data-queue={queue}
      data-matches={String(total)}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={`first side's predicted win chance of ${total} matches: ${described}`}
    >
      {bars.map((bar, i) => {
        const h = bar.matches === 0 ? 0 : Math.max(2, (bar.matches / max) * (plot - 2));
        const even = bar.to === 0.5 || bar.from === 0.5;
        return (
          <rect key={bar.to} x={i * step + 1} y={plot - h} width={step - 2} height={h} class={`bar${even ? ' even' : ''}`}>
            <title>{`${barLabel(bar)}: ${bar.matches} match${bar.matches === 1 ? '' : 'es'}`}</title>
          </rect>
        );
      })}
      <line x1="0" y1={plot + 0.5} x2={width} y2={plot + 0.5} class="axis" />
      <text x="0" y={height - 2} class="tick">
        {`${Math.round(first.from * 100)}%`}
      </text>
      {half >= 0 && half < bars.length - 1 && (
        <>
          <line x1={(half + 1) * step} y1="0" x2={(half + 1) * step} y2={plot} class="even-line" />
          <text x={(half + 1) * step} y={height - 2} class="tick" text-anchor="middle">
            50%
          </text>
        </>
      )}
      <text x={width} y={height - 2} class="tick" text-anchor="end">
        {`${Math.round(last.to * 100)}%`}
      </text>
    </svg>
  );
}
