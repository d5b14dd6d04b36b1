// Look up a recent decision by its id (GET /v1/decisions/{id}, the bounded recent-decision index).
import {h, json, section} from '../dom.js';
import {errorView, get} from '../api.js';
import {explained} from './decision.js';
import {firingsSection} from '../timeline.js';

export async function render(main, params, signal) {
  main.append(h('h1', null, 'Look up a decision'));
  const id = h('input', {id: 'decision-id-input', type: 'text', value: params.get('id') || '', required: true});
  const result = h('div', {id: 'lookup-result'});
  const form = h('form', {id: 'lookup-form'}, h('div', {class: 'row'},
    h('div', null, h('label', {for: 'decision-id-input'}, 'Decision id'), id),
    h('div', null, h('button', {type: 'submit', id: 'lookup'}, 'Look up'))));
  const lookUp = async () => {
    try {
      const record = (await get('/v1/decisions/' + encodeURIComponent(id.value.trim()), {signal})).json;
      result.replaceChildren(...await shown(record, signal));
    } catch (error) {
      result.replaceChildren(errorView(error) || '');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    history.replaceState(null, '', '#/lookup?id=' + encodeURIComponent(id.value.trim()));
    lookUp();
  });
  main.append(h('p', {class: 'muted'}, 'The service keeps its most recent decisions; older ones are in the decision log.'), form, result);
  if (id.value) await lookUp();
}

/** A record's revisions are its result's (records written before carried them beside it too). */
const REVISIONS = {policyRevision: 'Policy revision', rulesRevision: 'Rules revision',
  catalogRevision: 'Catalog revision', typeInstancesRevision: 'TypeInstances revision'};

async function shown(record, signal) {
  const result = typeof record.result === 'string' ? JSON.parse(record.result) : record.result;
  const parts = [section('Record', 'record-heading', h('dl', {class: 'facts', id: 'record'},
    ...[['Decision id', record.decisionId], ['Endpoint', record.endpoint], ['Time', record.timestamp], ['Outcome', record.outcome],
      ...['policyRevision', 'rulesRevision', 'catalogRevision', 'typeInstancesRevision'].map(field =>
        [REVISIONS[field], result?.[field] ?? record[field]]),
      ['Duration', record.durationMicros != null ? `${record.durationMicros} µs` : null]]
      .filter(([, v]) => v != null).flatMap(([k, v]) => [h('dt', null, k), h('dd', null, String(v))])))];
  if (result && result.outcome && 'selected' in result) {
    parts.push(...await explained(result, signal));
  } else if (result) {
    parts.push(section('Result', 'record-result', h('pre', null, json(result))),
      section('Fired rules', 'fired-rules', ...await firingsSection(result, signal)));
  }
  if (record.summarised) {
    // a record past the log's bound (16 KiB) counts its firings per rule and may leave out its request or result fields
    parts.push(section('Summarised record', 'record-summarised', h('p', null, record.summarised.why),
      h('pre', null, json(record.summarised))));
  }
  parts.push(section('Request', 'record-request', record.request === undefined
    ? h('p', null, `Not in the record (summarised): kept by its digest ${record.requestDigest}.`)
    : h('pre', null, typeof record.request === 'string' ? record.request : json(record.request))));
  return parts;
}
