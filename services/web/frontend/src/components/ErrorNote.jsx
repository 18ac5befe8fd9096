// The one place a page shows an error the server sent: its message as the service wrote it
// (the code goes in data-code and the tooltip). Nothing at all when there is no error.
export function ErrorNote({ error, testid = 'error' }) {
  if (!error) return null;
  return (
    <p class="error-note" role="alert" data-testid={testid} data-code={error.code || ''} title={error.code || undefined}>
      {error.message || String(error)}
    </p>
  );
}
