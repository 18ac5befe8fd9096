// The JSON API of docs/web.md: one fetch wrapper that sends the session's CSRF token on every
// request that changes something and turns the service's error JSON into a thrown ApiError.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

let csrfToken = '';
let onUnauthenticated = () => {};

// Set from the session (GET/POST /api/session); cleared on sign-out.
export function setCsrfToken(token) {
  csrfToken = token || '';
}

// Lets the app drop a session the server no longer knows (expired, signed out elsewhere, its
// player's token rotated); `fn` gets the server's message.
export function setUnauthenticatedHandler(fn) {
  onUnauthenticated = fn;
}

// A live stream ended because the session is over (events.js).
export function sessionEnded(message) {
  onUnauthenticated(message);
}

export async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (e) {
    throw new ApiError('UNAVAILABLE', 'The server could not be reached.', 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: keep the status, say what came back.
  }
  if (!response.ok) {
    const error = data && data.error;
    const code = (error && error.code) || `HTTP_${response.status}`;
    const message = (error && error.message) || response.statusText || 'Request failed';
    if (response.status === 401 && path !== '/api/session') onUnauthenticated(message);
    throw new ApiError(code, message, response.status);
  }
  return data;
}

export const get = (path) => request('GET', path);
export const post = (path, body = {}) => request('POST', path, body);
export const patch = (path, body = {}) => request('PATCH', path, body);
export const del = (path) => request('DELETE', path);

// Builds "path?k=v&..." leaving out empty values.
export function withQuery(path, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
