// A request editor shared by the views that take a whole request: paste, load a file, or load the documented example.
import {h} from './dom.js';
import {errorView, get, post} from './api.js';

let openApi = null;

/** The request example the OpenAPI document gives for a decision target. */
export async function example(target) {
  openApi = openApi || get('/openapi.json').then((r) => r.json);
  const doc = await openApi;
  return doc.paths[`/v1/decisions/${target}`]?.post?.requestBody?.content?.['application/json']?.examples?.docs?.value;
}

export function requestEditor(target, onDecide) {
  const text = h('textarea', {id: `${target}-request`, spellcheck: 'false', 'aria-describedby': `${target}-request-help`});
  const file = h('input', {type: 'file', id: `${target}-file`, accept: '.json,.yaml,.yml,application/json,application/yaml'});
  file.addEventListener('change', async () => {
    if (file.files[0]) text.value = await file.files[0].text();
  });
  const loadExample = h('button', {type: 'button', id: `${target}-example`}, 'Load the example');
  loadExample.addEventListener('click', async () => {
    text.value = JSON.stringify(await example(target), null, 2);
    text.focus();
  });
  const form = h('form', {id: `${target}-form`},
    h('label', {for: `${target}-request`}, `Request for POST /v1/decisions/${target} (JSON or YAML)`),
    h('p', {id: `${target}-request-help`, class: 'muted'}, 'Paste a request, load a file, or load the documented example.'),
    text,
    h('div', {class: 'row'},
      h('div', null, h('label', {for: `${target}-file`}, 'Load a file'), file),
      h('div', null, loadExample),
      h('div', null, h('button', {type: 'submit', id: `${target}-decide`}, 'Decide'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onDecide(text.value);
  });
  return {form, text};
}

/**
 * The page of a target decided from a whole request: its heading, the request editor, and the decision as
 * {@code view(response, request, signal)} renders it (or the refusal).
 */
export function decisionPage(main, target, title, view, signal) {
  main.append(h('h1', null, title));
  const status = h('p', {class: 'status', role: 'status', 'aria-live': 'polite'});
  const result = h('div', {id: `${target}-result`});
  const {form} = requestEditor(target, async (text) => {
    status.textContent = 'Deciding…';
    try {
      const response = (await post(`/v1/decisions/${target}`, text, {signal})).json;
      status.textContent = 'Decided.';
      result.replaceChildren(...await view(response, parsed(text), signal));
    } catch (error) {
      status.textContent = 'The request was refused.';
      result.replaceChildren(errorView(error) || '');
    }
  });
  main.append(form, status, result);
}

/** The request as data when it is JSON, else null (YAML is sent as is; the service reads it). */
export function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
