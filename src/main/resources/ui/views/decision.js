// An implementation decision, explained: oneOf items, selected Implementation, injections, backends, fired rules.
// The action-policy editor re-decides as you type (debounced); its errors point at the editor's own lines.
import {debounce, h, json, ref, section} from '../dom.js';
import {errorView, location, post} from '../api.js';
import {firingsSection} from '../timeline.js';
import {ruleKey} from './catalog.js';

const DEBOUNCE_MILLIS = 400;

export async function render(main, params, signal) {
  main.append(h('h1', null, 'Implementation decision'));
  const path = h('input', {id: 'interface-path', type: 'text', value: params.get('path') || '', required: true,
    placeholder: 'cap.interface.database.postgresql.install'});
  const revision = h('input', {id: 'interface-revision', type: 'text', value: params.get('revision') || '', placeholder: 'highest'});
  const policy = h('textarea', {id: 'action-policy', spellcheck: 'false', 'aria-describedby': 'action-policy-help',
    placeholder: 'interface:\n  rules:\n    - interface: {path: cap.*}\n      oneOf: [...]'});
  const status = h('p', {id: 'decide-status', class: 'status', role: 'status', 'aria-live': 'polite'});
  const result = h('div', {id: 'decision-result'});
  const form = h('form', {id: 'decide-form'},
    h('div', {class: 'row'},
      h('div', null, h('label', {for: 'interface-path'}, 'Interface path'), path),
      h('div', null, h('label', {for: 'interface-revision'}, 'Revision (optional)'), revision),
      h('div', null, h('button', {type: 'submit', id: 'decide'}, 'Decide'))),
    h('label', {for: 'action-policy'}, 'Action policy (optional, YAML or JSON)'),
    h('p', {id: 'action-policy-help', class: 'muted'}, 'Re-decides as you type. Leave empty to decide under the live policy only.'),
    policy);
  main.append(form, status, result);

  let inFlight = null;
  const decide = async () => {
    if (!path.value.trim()) {
      status.textContent = 'Enter an Interface path.';
      return;
    }
    inFlight?.abort();
    const controller = new AbortController();
    signal.addEventListener('abort', () => controller.abort());
    inFlight = controller;
    status.textContent = 'Deciding…';
    const {body, policyLine} = request(path.value.trim(), revision.value.trim(), policy.value);
    try {
      const decision = (await post('/v1/decisions/implementation', body, {signal: controller.signal})).json;
      if (controller.signal.aborted) return;
      status.textContent = `Decided: ${decision.outcome}`;
      result.replaceChildren(...await explained(decision, controller.signal));
    } catch (error) {
      if (controller.signal.aborted) return;
      status.textContent = 'The decision was refused.';
      result.replaceChildren(errorView(error, (detail) => editorLocation(detail, policyLine)) || '');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = new URLSearchParams({path: path.value.trim()});
    if (revision.value.trim()) query.set('revision', revision.value.trim());
    history.replaceState(null, '', '#/decision?' + query);
    decide();
  });
  policy.addEventListener('input', debounce(decide, DEBOUNCE_MILLIS));
  if (path.value) await decide();
}

/**
 * The request: JSON without a policy; with one, YAML, the editor's text indented under actionPolicy (JSON is
 * YAML too), so that the service locates problems in it. policyLine: the request line of the editor's first line.
 */
export function request(path, revision, policyText) {
  const iface = revision ? {path, revision} : {path};
  if (!policyText.trim()) return {body: {interface: iface, explain: true}, policyLine: null};
  const header = ['interface:', `  path: ${JSON.stringify(path)}`];
  if (revision) header.push(`  revision: ${JSON.stringify(revision)}`);
  header.push('explain: true', 'actionPolicy:');
  const lines = policyText.replace(/\t/g, '  ').split('\n').map((line) => '  ' + line);
  return {body: header.concat(lines).join('\n') + '\n', policyLine: header.length + 1};
}

function editorLocation(detail, policyLine) {
  if (policyLine && detail.line != null && detail.line >= policyLine && String(detail.path).startsWith('$.actionPolicy')) {
    return `editor line ${detail.line - policyLine + 1}, column ${Math.max(1, (detail.column ?? 3) - 2)}`;
  }
  return location(detail);
}

export async function explained(decision, signal) {
  const parts = [];
  parts.push(section('Decision', 'decision-summary', h('dl', {class: 'facts'},
    h('dt', null, 'Outcome'), h('dd', null, h('span', {class: `badge ${decision.outcome}`, id: 'outcome'}, decision.outcome)),
    h('dt', null, 'Interface'), h('dd', null, h('code', null, ref(decision.interface))),
    h('dt', null, 'Rule key'), h('dd', {id: 'rule-key'}, ruleKey(decision.rule)),
    h('dt', null, 'Selected'), h('dd', {id: 'selected'}, decision.selected ? h('code', null, ref(decision.selected)) : h('span', {class: 'muted'}, 'none')),
    h('dt', null, 'Candidates'), h('dd', null, decision.candidates?.length ? decision.candidates.map(ref).join(', ') : '—'),
    h('dt', null, 'Decision id'), h('dd', null, h('a', {href: '#/lookup?id=' + encodeURIComponent(decision.decisionId), id: 'decision-id'}, decision.decisionId)),
    h('dt', null, 'Revisions'), h('dd', {class: 'muted'}, `policy ${decision.policyRevision} · rules ${decision.rulesRevision} · catalog ${decision.catalogRevision ?? '?'} · TypeInstances ${decision.typeInstancesRevision ?? '?'}`)),
    decision.warnings?.length ? h('ul', {class: 'warnings'}, decision.warnings.map((w) => h('li', null, w))) : null));

  if (decision.explanation) {
    parts.push(section('oneOf items', 'oneof-items', decision.explanation.length === 0
      ? h('p', {class: 'muted'}, 'No rule applied: no oneOf item was tried.')
      : decision.explanation.map((item) => oneOfItem(item, decision.rule?.oneOfIndex))));
  }

  const inject = decision.inject || {requiredTypeInstances: [], additionalTypeInstances: [], additionalParameters: []};
  parts.push(section('Injections', 'injections',
    table('Required TypeInstances', 'required-typeinstances', ['alias', 'id', 'Type'],
      inject.requiredTypeInstances.map((t) => [t.alias, t.id, ref(t.typeRef)])),
    table('Additional TypeInstances', 'additional-typeinstances', ['name', 'id'],
      inject.additionalTypeInstances.map((t) => [t.name, t.id])),
    table('Additional parameters', 'additional-parameters', ['name', 'value'],
      inject.additionalParameters.map((p) => [p.name, h('pre', null, json(p.value))]))));
  parts.push(section('Backends', 'backends', table('Storage backends', 'backends-table', ['alias', 'TypeInstance id', 'source'],
    (decision.backends || []).map((b) => [b.alias, b.id, b.source]))));
  parts.push(section('Fired rules', 'fired-rules', ...await firingsSection(decision, signal)));
  return parts;
}

function oneOfItem(item, winner) {
  const won = item.oneOfIndex === winner;
  return h('div', {class: 'item' + (won ? ' winner' : ''), 'data-oneof': item.oneOfIndex},
    h('h3', null, `oneOf[${item.oneOfIndex}]`, won ? ' — chosen' : '', ' ', h('span', {class: 'muted'}, item.item || '')),
    item.constraints ? h('p', {class: 'muted'}, 'constraints: ', constraintText(item.constraints)) : null,
    h('p', {class: 'matched'}, `Matched (${item.matched.length} of ${item.tried}): `,
      item.matched.length ? item.matched.map(ref).join(', ') : 'none'),
    item.rejected.length ? h('ul', {class: 'rejected-list'}, item.rejected.map((r) => h('li', {class: 'rejected'},
      h('code', null, ref(r.implementation)), ': ', r.reasons.join('; ')))) : null);
}

function constraintText(c) {
  const parts = [];
  if (c.path) parts.push(`path ${c.path}`);
  if (c.attributes?.length) parts.push(`attributes ${c.attributes.map(ref).join(', ')}`);
  if (c.requires?.length) parts.push(`requires ${c.requires.map(ref).join(', ')}`);
  return parts.length ? parts.join(' · ') : 'none';
}

export function table(caption, id, headers, rows) {
  if (!rows.length) return h('p', {id, class: 'muted'}, `${caption}: none`);
  return h('table', {id}, h('caption', null, caption),
    h('thead', null, h('tr', null, headers.map((title) => h('th', {scope: 'col'}, title)))),
    h('tbody', null, rows.map((cells) => h('tr', null, cells.map((cell) => h('td', null, cell))))));
}
