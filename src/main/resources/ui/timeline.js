// Fired rules as a timeline by phase, each firing naming its rule file and line or table row (from GET /v1/rules).
// Takes today's firings ({rule, name, package, order, facts}) and compact ones ({rule, order, facts}).
import {h} from './dom.js';
import {get} from './api.js';

let index = null;

/** Rule sources by qualified rule name, and each policy type's phases. Fetched once per page. */
export async function ruleIndex() {
  if (!index) {
    index = get('/v1/rules').then(({json}) => {
      const rules = new Map();
      const phases = new Map();
      const packages = new Set();
      for (const set of json.ruleSets) {
        phases.set(set.policyType, set.phases);
        for (const rule of set.rules) {
          rules.set(rule.rule, rule);
          packages.add(rule.package);
        }
      }
      return {rules, phases, packages: [...packages].sort((a, b) => b.length - a.length)};
    }).catch((error) => {
      index = null;
      throw error;
    });
  }
  return index;
}

/** A firing's rule name: its own `name`, else the rule index's, else `rule` less a known package. */
export function nameOf(firing, idx) {
  if (firing.name) return firing.name;
  const known = idx?.rules.get(firing.rule);
  if (known) return known.name;
  const pkg = idx?.packages.find((p) => firing.rule?.startsWith(p + '.'));
  return pkg ? firing.rule.slice(pkg.length + 1) : String(firing.rule ?? '?');
}

/** Past this many firings (a dependencies request of 2,000 policies fires over 100,000) the rest are counted, not drawn. */
const SHOWN = 2000;

export function timeline(firings, idx, title = 'Fired rules') {
  if (!Array.isArray(firings)) return h('p', {class: 'muted'}, 'No firings in this response.');
  const groups = [];
  for (const firing of firings.slice(0, SHOWN)) {
    const source = idx?.rules.get(firing.rule);
    const phase = source?.phase ?? firing.phase ?? 'unknown phase';
    let group = groups[groups.length - 1];
    if (!group || group.phase !== phase) {
      group = {phase, firings: []};
      groups.push(group);
    }
    group.firings.push({firing, source});
  }
  const list = h('ol', {class: 'timeline', 'aria-label': title},
    groups.map((group) => h('li', {class: 'phase', 'data-phase': group.phase},
      h('h3', null, 'Phase ', h('code', null, group.phase), h('span', {class: 'muted'}, ` · ${group.firings.length} firing${group.firings.length === 1 ? '' : 's'}`)),
      h('ol', {class: 'firings'}, group.firings.map(({firing, source}) => h('li', {class: 'firing', value: firing.order},
        h('span', {class: 'order'}, `#${firing.order} `), h('strong', {class: 'rule-name'}, nameOf(firing, idx)), ' ',
        h('span', {class: 'where'}, where(source)),
        firing.facts?.length ? h('div', {class: 'facts'}, 'facts: ', firing.facts.join(', ')) : null))))));
  return firings.length > SHOWN
    ? h('div', null, list, h('p', {class: 'muted'}, `${firings.length - SHOWN} later firings are not shown.`))
    : list;
}

function where(source) {
  if (!source) return '(source unknown)';
  if (source.row != null) return `${source.file} row ${source.row}`;
  if (source.line != null) return `${source.file}:${source.line}`;
  return source.file;
}

/** The response's firings: every decision carries its own, inline. */
export async function firingsSection(response, signal) {
  const idx = await ruleIndex().catch(() => null);
  return [timeline(response.firedRules, idx, 'Fired rules of this request')];
}
