// A small chip that says whether a page's live stream is connected.
const labels = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  ended: 'ended',
  failed: 'disconnected',
};

export function LiveStatus({ status }) {
  return (
    <span class={`chip live-${status}`} data-testid="live-status" data-status={status}>
      {labels[status] || status}
    </span>
  );
}
