// A row of small labelled values under a board ("Count 10", "Phase play"); entries whose value
// is null, undefined or '' are left out so each game can pass what its layout has.
export function Facts({ items }) {
  const shown = items.filter(([, value]) => value !== null && value !== undefined && value !== '');
  if (shown.length === 0) return null;
  return (
    <dl class="facts">
      {shown.map(([label, value]) => (
        <div class="fact" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function seatName(seat) {
  return seat === null || seat === undefined || seat < 0 ? '' : `seat ${seat}`;
}
