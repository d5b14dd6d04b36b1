// Rollout: decision groups × clusters, coloured by status; rolled out now, timed out, removed, breach, recheck time.
import {h, section} from '../dom.js';
import {decisionPage} from '../requests.js';
import {firingsSection} from '../timeline.js';
import {table} from './decision.js';

export async function render(main, params, signal) {
  decisionPage(main, 'rollout', 'Rollout', view, signal);
}

async function view(response, request, signal) {
  const statuses = new Map(response.clusterStatuses.map((c) => [c.cluster, c]));
  const now = new Set(response.toRollout.map((c) => c.cluster));
  const recheck = response.recheckAfterSeconds;
  const at = recheck != null && request?.now ? new Date(Date.parse(request.now) + recheck * 1000).toISOString() : null;
  return [
    section('Summary', 'rollout-summary', h('dl', {class: 'facts'},
      h('dt', null, 'Aggregated status'), h('dd', null, h('span', {class: `badge ${response.aggregatedStatus}`, id: 'aggregated'}, response.aggregatedStatus)),
      h('dt', null, 'Failure limit'), h('dd', {id: 'breach'}, response.maxFailureBreach
        ? h('span', {class: 'breach'}, 'breached: more clusters failed than maxFailures allows; the rollout stops')
        : 'not breached'),
      h('dt', null, 'Recheck'), h('dd', {id: 'recheck'}, recheck == null ? 'nothing to recheck'
        : `in ${recheck} s${at ? ` (at ${at})` : ''}`))),
    section('Groups × clusters', 'rollout-grid', grid(request, statuses, now),
      h('p', {class: 'legend muted'}, 'Outlined: in this decision\'s toRollout (updated now, or watched). Colour: the status after this decision.')),
    section('Rolled out now', 'rolled-out', table('toRollout', 'to-rollout', ['cluster', 'group', 'status', 'remediation'],
      response.toRollout.map((c) => [c.cluster, String(c.groupIndex), c.status, c.remediationAction]))),
    section('Timed out and removed', 'timed-out-removed',
      table('Timed out in this decision', 'timed-out', ['cluster', 'group', 'status'],
        response.timedOut.map((c) => [c.cluster, String(c.groupIndex), c.status])),
      table('Removed (in no decision group)', 'removed', ['cluster', 'status'], response.removed.map((c) => [c.cluster, c.status]))),
    section('Fired rules', 'fired-rules', ...await firingsSection(response, signal)),
  ];
}

/** One row per decision group (from the request); without a JSON request, one row of every cluster. */
function grid(request, statuses, now) {
  const groups = Array.isArray(request?.decisionGroups)
    ? [...request.decisionGroups].sort((a, b) => (a.groupIndex ?? 0) - (b.groupIndex ?? 0))
      .map((g) => ({label: `${g.groupName || '(unnamed)'} #${g.groupIndex ?? 0}`, clusters: [...(g.clusters || [])].sort()}))
    : [{label: 'all groups', clusters: [...statuses.keys()]}];
  const width = Math.max(1, ...groups.map((g) => g.clusters.length));
  return h('table', {class: 'grid', id: 'grid'},
    h('caption', null, 'Each cluster\'s rollout status and remediation action'),
    h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'group'),
      Array.from({length: width}, (_, i) => h('th', {scope: 'col'}, `cluster ${i + 1}`)))),
    h('tbody', null, groups.map((g) => h('tr', null, h('th', {scope: 'row'}, g.label),
      Array.from({length: width}, (_, i) => {
        const name = g.clusters[i];
        if (!name) return h('td', null);
        const st = statuses.get(name);
        return h('td', {class: `cell ${st?.rolloutStatus ?? ''}${now.has(name) ? ' now' : ''}`, 'data-cluster': name},
          h('div', null, name), h('div', {class: 'muted'}, `${st?.rolloutStatus ?? '?'} · ${st?.remediationAction ?? '?'}`));
      })))));
}
