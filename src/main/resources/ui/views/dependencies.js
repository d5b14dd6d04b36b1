// Dependencies: a graph of policies, templates and dependency edges; pending templates with their blockers,
// cycles in red.
import {h, s, section} from '../dom.js';
import {decisionPage} from '../requests.js';
import {firingsSection} from '../timeline.js';
import {table} from './decision.js';

export async function render(main, params, signal) {
  decisionPage(main, 'dependencies', 'Dependencies', view, signal);
}

async function view(response, request, signal) {
  const pending = response.policies.flatMap((p) => p.templates.filter((t) => t.state === 'PENDING')
    .map((t) => ({policy: canonical(p), template: t})));
  return [
    section('Graph', 'dependency-graph', graph(response, request),
      h('p', {class: 'legend muted'}, h('span', null, '▭ blue: policy'), h('span', null, '▭ green: active template'),
        h('span', null, '▭ yellow: pending template'), h('span', null, '▭ dashed: object outside the request'),
        h('span', null, 'red: a dependency cycle'))),
    section('Pending templates', 'pending-templates', pending.length
      ? h('ul', {id: 'pending-list'}, pending.map(({policy, template}) => h('li', {class: 'pending'},
        h('strong', null, `${policy} / ${template.name}`), ' waits on ', template.waitingOn.join(', '),
        h('ul', null, template.unmet.map((u) => h('li', null, `${u.dependency.kind} ${u.dependency.name} wanted ${u.dependency.compliance}: ${u.reason}`))))))
      : h('p', {id: 'pending-list', class: 'muted'}, 'No template is pending.')),
    section('Cycles', 'cycles', response.cycles.length
      ? h('ul', {id: 'cycle-list'}, response.cycles.map((c) => h('li', {class: 'rejected'}, c.concat(c[0]).join(' → '))))
      : h('p', {id: 'cycle-list', class: 'muted'}, 'No dependency cycle.')),
    section('Templates', 'templates', table('Every template', 'templates-table', ['policy', 'template', 'state', 'compliant', 'action', 'message'],
      response.policies.flatMap((p) => p.templates.map((t) => [canonical(p), t.name,
        h('span', {class: `badge ${t.state}`}, t.state), t.compliant ?? '—', t.action, t.message ?? ''])))),
    section('Fired rules', 'fired-rules', ...await firingsSection(response, signal)),
  ];
}

function canonical(policy) {
  return `${policy.namespace}.${policy.name}`;
}

/** Layout: policies in the first column, each followed by its templates; objects outside the request on the right. */
function graph(response, request) {
  const policies = new Map(response.policies.map((p) => [canonical(p), p]));
  const inCycle = new Set(response.cycles.flat());
  const cycleNext = new Map();
  for (const cycle of response.cycles) cycle.forEach((name, i) => cycleNext.set(name, (cycleNext.get(name) || new Set()).add(cycle[(i + 1) % cycle.length])));
  const nodes = new Map();
  const edges = [];
  const rowHeight = 34, width = 230, gap = 90;
  let row = 0;
  for (const [name, policy] of policies) {
    nodes.set('P:' + name, {label: name, kind: 'policy', x: 10, y: 10 + row * rowHeight, cycle: inCycle.has(name)});
    policy.templates.forEach((t) => {
      nodes.set(`T:${name}/${t.index}`, {label: t.name, kind: `template ${t.state}`, x: 10 + width + gap, y: 10 + row * rowHeight});
      edges.push({from: 'P:' + name, to: `T:${name}/${t.index}`, kind: 'contains'});
      row++;
    });
    if (!policy.templates.length) row++;
  }
  let external = 0;
  const target = (dependency) => {
    if (dependency.kind === 'Policy' && policies.has(dependency.name)) return 'P:' + dependency.name;
    const key = `X:${dependency.kind} ${dependency.name}`;
    if (!nodes.has(key)) nodes.set(key, {label: `${dependency.kind} ${dependency.name}`, kind: 'external', x: 10 + 2 * (width + gap), y: 10 + external++ * rowHeight});
    return key;
  };
  for (const [name, policy] of policies) {
    for (const t of policy.templates) {
      const from = `T:${name}/${t.index}`;
      const unmet = new Set();
      for (const u of t.unmet) {
        const to = target(u.dependency);
        unmet.add(to);
        edges.push({from, to, kind: 'unmet', cycle: to.startsWith('P:') && cycleNext.get(name)?.has(to.slice(2)), label: u.reason});
      }
      for (const d of metDependencies(request, policy, t)) {
        const to = target(d);
        if (!unmet.has(to)) edges.push({from, to, kind: 'met'});
      }
    }
  }
  const height = 20 + Math.max(row, external, 1) * rowHeight;
  const total = 20 + (external ? 3 : 2) * width + (external ? 2 : 1) * gap;
  const svg = s('svg', {class: 'graph', id: 'graph', viewBox: `0 0 ${total} ${height}`, width: total, height, role: 'img',
    'aria-label': `Dependency graph: ${policies.size} policies, ${response.cycles.length} cycles`},
  s('defs', null, s('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'},
    s('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: '#8c959f'}))));
  for (const edge of edges) {
    const a = nodes.get(edge.from), b = nodes.get(edge.to);
    // forward edges leave a node's right side; an edge back to a policy leaves the template's left side
    const backwards = b.x < a.x;
    const x1 = backwards ? a.x : a.x + width, y1 = a.y + 12;
    const x2 = backwards ? b.x + width : b.x, y2 = b.y + 12;
    const bend = backwards ? -40 : 40;
    const d = `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
    svg.append(s('path', {d, class: `edge ${edge.kind}${edge.cycle ? ' cycle' : ''}`, 'data-from': edge.from, 'data-to': edge.to,
      'stroke-dasharray': edge.kind === 'met' ? '4 3' : null, 'marker-end': edge.kind === 'contains' ? null : 'url(#arrow)'},
    edge.label ? s('title', null, edge.label) : null));
  }
  for (const [id, node] of nodes) {
    svg.append(s('g', {class: `node ${node.kind}${node.cycle ? ' cycle' : ''}`, 'data-node': id, transform: `translate(${node.x},${node.y})`},
      s('rect', {width, height: 24, rx: 4}), s('text', {x: 8, y: 16}, truncate(node.label, 32)), s('title', null, node.label)));
  }
  return svg;
}

/** The template's dependencies from the request (JSON only), named as the service canonicalises a Policy. */
function metDependencies(request, policy, template) {
  const source = request?.policies?.find((p) => p.name === policy.name && (p.namespace || '') === (policy.namespace || ''));
  if (!source) return [];
  const own = source.policyTemplates?.[template.index]?.extraDependencies || [];
  return [...(source.dependencies || []), ...own].map((d) => {
    if (d.kind === 'Policy' && d.apiVersion?.startsWith('policy.open-cluster-management.io/')) {
      const name = d.namespace ? `${d.namespace}.${d.name}` : (d.name.includes('.') ? d.name : `${policy.namespace}.${d.name}`);
      return {kind: d.kind, name};
    }
    return {kind: d.kind, name: d.name};
  });
}

function truncate(text, max) {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
