// The landing view: every Interface of the catalog with its decision under the live policy.
import {h, ref} from '../dom.js';
import {errorView, get, post} from '../api.js';

const PARALLEL = 4;

export async function render(main, params, signal) {
  main.append(h('h1', null, 'Catalog at a glance'));
  const status = h('p', {class: 'status', role: 'status', 'aria-live': 'polite'}, 'Loading the catalog…');
  main.append(status);
  const catalog = (await get('/v1/catalog', {signal})).json;
  const rows = new Map();
  const table = h('table', {id: 'catalog'},
    h('caption', null, `${catalog.interfaces.length} Interfaces, decided under the live policy (catalog ${catalog.catalogRevision})`),
    h('thead', null, h('tr', null, ['Interface', 'Outcome', 'Selected Implementation', 'Rule key', 'Implementations']
      .map((title) => h('th', {scope: 'col'}, title)))),
    h('tbody', null, catalog.interfaces.map((iface) => {
      const cells = {outcome: h('td', {class: 'outcome'}, '…'), selected: h('td', {class: 'selected'}), rule: h('td', {class: 'rule'})};
      const link = h('a', {href: decisionLink(iface)}, ref(iface));
      const row = h('tr', {'data-interface': iface.path}, h('th', {scope: 'row'}, link), cells.outcome, cells.selected, cells.rule,
        h('td', null, String(iface.implementations.length)));
      rows.set(iface, cells);
      return row;
    })));
  main.append(table);
  let done = 0;
  const queue = [...catalog.interfaces];
  const worker = async () => {
    while (queue.length && !signal.aborted) {
      const iface = queue.shift();
      const cells = rows.get(iface);
      try {
        const decision = (await post('/v1/decisions/implementation',
          {interface: {path: iface.path, revision: iface.revision}}, {signal})).json;
        cells.outcome.replaceChildren(h('span', {class: `badge ${decision.outcome}`}, decision.outcome));
        cells.selected.replaceChildren(decision.selected ? ref(decision.selected) : h('span', {class: 'muted'}, 'none'));
        cells.rule.replaceChildren(ruleKey(decision.rule));
      } catch (error) {
        if (signal.aborted) return;
        cells.outcome.replaceChildren(errorView(error) || '');
      }
      done++;
      status.textContent = `${done} of ${catalog.interfaces.length} decided`;
    }
  };
  await Promise.all(Array.from({length: PARALLEL}, worker));
}

export function decisionLink(iface) {
  const query = new URLSearchParams({path: iface.path});
  if (iface.revision) query.set('revision', iface.revision);
  return '#/decision?' + query;
}

export function ruleKey(rule) {
  if (!rule || !rule.interface) return h('span', {class: 'muted'}, 'no rule');
  return h('span', null, h('code', null, ref(rule.interface)), rule.oneOfIndex != null ? ` · oneOf[${rule.oneOfIndex}]` : '');
}
