// A last-hour chart as a hand-drawn SVG polyline: the shape of a series and its range, which
// is all an overview panel needs.
export function Sparkline({ values, width = 240, height = 48, label }) {
  const points = values.map(Number).filter((v) => Number.isFinite(v));
  if (points.length < 2) return <svg class="sparkline empty" width={width} height={height} aria-hidden="true" />;
  const max = Math.max(...points);
  const min = Math.min(0, ...points);
  const span = max - min || 1;
  const step = width / (points.length - 1);
  const y = (v) => (height - 2 - ((v - min) / span) * (height - 4)).toFixed(1);
  const line = points.map((v, i) => `${(i * step).toFixed(1)},${y(v)}`).join(' ');
  return (
    // Stretched to the panel's width; the line keeps its stroke through non-scaling-stroke.
    <svg class="sparkline" viewBox={`0 0 ${width} ${height}`} width={width} height={height} preserveAspectRatio="none" role="img" aria-label={label}>
      <title>{`${label}: ${min} to ${max}`}</title>
      <polyline points={`0,${height} ${line} ${width},${height}`} class="area" />
      <polyline points={line} class="line" />
    </svg>
  );
}
