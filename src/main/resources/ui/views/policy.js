// The live global policy: read it, validate an edit (no token needed), replace it (an admin action: asks the token).
import {h, section} from '../dom.js';
import {call, errorView, get, post} from '../api.js';

export async function render(main, params, signal) {
  main.append(h('h1', null, 'Live policy'));
  const current = await get('/v1/policy', {signal, headers: {Accept: 'application/yaml'}});
  let etag = current.headers.get('ETag');
  const revision = h('p', {id: 'policy-revision'}, `Revision ${etag}`);
  const text = h('textarea', {id: 'policy-text', spellcheck: 'false'});
  text.value = current.text;
  const result = h('div', {id: 'policy-result', 'aria-live': 'polite'});
  const validate = h('button', {type: 'button', id: 'validate-policy'}, 'Validate');
  const replace = h('button', {type: 'button', id: 'replace-policy'}, 'Replace the live policy (admin)');
  validate.addEventListener('click', async () => {
    result.replaceChildren();
    try {
      const answer = (await post('/v1/policy/validate', text.value, {signal})).json;
      result.replaceChildren(answer.valid
        ? h('p', {class: 'matched', id: 'policy-valid'}, 'Valid.')
        : problems(answer.problems));
    } catch (error) {
      result.replaceChildren(errorView(error) || '');
    }
  });
  replace.addEventListener('click', async () => {
    result.replaceChildren();
    try {
      const answer = await call('PUT', '/v1/policy', text.value, {signal, headers: {'If-Match': etag},
        admin: 'Replacing the live policy needs the server\'s admin token.'});
      etag = answer.headers.get('ETag');
      revision.textContent = `Revision ${etag}`;
      result.replaceChildren(h('p', {class: 'matched', id: 'policy-replaced'}, `Replaced: the live policy is now revision ${answer.json.revision}.`),
        answer.json.warnings?.length ? h('ul', null, answer.json.warnings.map((w) => h('li', null, w))) : '');
    } catch (error) {
      result.replaceChildren(errorView(error) || '');
    }
    replace.focus();
  });
  main.append(revision, section('Policy (YAML)', 'policy-editor', h('label', {for: 'policy-text'}, 'Global policy'), text,
    h('div', {class: 'buttons'}, validate, replace)), result);
}

function problems(list) {
  return h('div', {class: 'error', role: 'alert', id: 'policy-problems'}, h('p', null, h('strong', null, 'Invalid'), `: ${list.length} problem(s)`),
    h('table', null, h('thead', null, h('tr', null, ['path', 'problem', 'line:column'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', null, list.map((p) => h('tr', null, h('td', null, h('code', null, p.path)), h('td', null, p.problem),
        h('td', null, p.line != null ? `${p.line}:${p.column ?? '?'}` : '—'))))));
}
