// The one place a page shows an error the server sent: its message, with the code for the
// curious. Empty when there is none, so tests can wait for it to appear.
export function ErrorNote({ error, testid = 'error' }) {
  if (!error) return null;
  return (
    <p class="error-note" role="alert" data-testid={testid} data-code={error.code || ''}>
      {error.message || String(error)}
      {error.code && <span class="error-code">{error.code}</span>}
    </p>
  );
}
