// Talks to the service. Every failure becomes an ApiError carrying the contract's error body.
import {h} from './dom.js';

const TOKEN_KEY = 'arbiter.adminToken';

export class ApiError extends Error {
  constructor(status, body, text) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.text = text;
  }
}

/** JSON when the text parses as JSON, else YAML (the service takes both). */
export function contentTypeOf(text) {
  try {
    JSON.parse(text);
    return 'application/json';
  } catch {
    return 'application/yaml';
  }
}

export async function call(method, path, body, options = {}) {
  const headers = {...(options.headers || {})};
  const init = {method, headers, signal: options.signal};
  if (body !== undefined) {
    if (typeof body === 'string') {
      init.body = body;
      headers['Content-Type'] = options.contentType || contentTypeOf(body);
    } else {
      init.body = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
  }
  if (options.admin) {
    headers.Authorization = 'Bearer ' + await adminToken(options.admin, options.tokenError);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (response.status === 401 && options.admin && !options.retried) {
    forgetToken();
    return call(method, path, body, {...options, retried: true, tokenError: parsed?.error?.message});
  }
  if (!response.ok) throw new ApiError(response.status, parsed, text);
  return {status: response.status, json: parsed, text, headers: response.headers};
}

export const get = (path, options) => call('GET', path, undefined, options);
export const post = (path, body, options) => call('POST', path, body, options);

// The admin token: asked for when an admin action needs it, kept in this tab's session storage only.
export function hasToken() {
  return !!sessionStorage.getItem(TOKEN_KEY);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
  showTokenState();
}

export function showTokenState() {
  const state = document.getElementById('token-state');
  if (state) state.hidden = !hasToken();
}

/** Asks for the token; {@code refused}: the server's words for the token it just refused, shown with what to do. */
function adminToken(reason, refused) {
  const known = sessionStorage.getItem(TOKEN_KEY);
  if (known) return Promise.resolve(known);
  const dialog = document.getElementById('token-dialog');
  const input = document.getElementById('token-input');
  document.getElementById('token-reason').textContent = typeof reason === 'string' ? reason : 'This action needs the server\'s admin token.';
  document.getElementById('token-error').textContent = refused === undefined ? ''
    : `The server refused that token${refused ? ` (${refused})` : ''}. Enter the token the server was started with `
      + '(its ARBITER_ADMIN_TOKEN), or cancel.';
  input.value = '';
  return new Promise((resolve, reject) => {
    const form = document.getElementById('token-form');
    const cancel = document.getElementById('token-cancel');
    const done = () => {
      form.removeEventListener('submit', onSubmit);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
    };
    const onSubmit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) {
        document.getElementById('token-error').textContent = 'Enter the token, or cancel.';
        return;
      }
      sessionStorage.setItem(TOKEN_KEY, token);
      done();
      dialog.close();
      showTokenState();
      resolve(token);
    };
    const onCancel = (event) => {
      event?.preventDefault?.();
      done();
      dialog.close();
      reject(new ApiError(401, {error: {code: 'UNAUTHORIZED', message: 'no admin token given: the action was not sent', details: []}}));
    };
    form.addEventListener('submit', onSubmit);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    input.focus();
  });
}

/** The contract's error body, with each detail's location. */
export function errorView(error, locate) {
  if (error?.name === 'AbortError') return null;
  const body = error instanceof ApiError ? error.body?.error : null;
  const title = body ? `${error.status} ${body.code}` : (error instanceof ApiError ? `HTTP ${error.status}` : 'The request failed');
  const details = body?.details || [];
  return h('div', {class: 'error', role: 'alert'},
    h('p', {class: 'error-title'}, h('strong', null, title), ': ', body?.message || error.message),
    details.length ? h('table', {class: 'error-details'},
      h('caption', null, 'Where'),
      h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'path'), h('th', {scope: 'col'}, 'problem'), h('th', {scope: 'col'}, 'line:column'))),
      h('tbody', null, details.map((d) => h('tr', null,
        h('td', null, h('code', null, d.path)), h('td', null, d.problem),
        h('td', null, locate ? locate(d) : location(d)))))) : null,
    !body && error instanceof ApiError && error.text ? h('pre', null, error.text.slice(0, 2000)) : null);
}

export function location(detail) {
  return detail.line != null ? `${detail.line}:${detail.column ?? '?'}` : '—';
}
