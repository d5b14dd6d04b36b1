// Decision tables: the list (#/tables), and one table as a grid (#/tables?type=&name=) that an analyst edits. Lint runs
// as you type (the service's, located at row and cell; an enumerated column's allowed values are checked at once and
// offered in place); the impact of the edit is shown before it is applied; Apply asks the admin token, then shows each
// replica that answers /v1/status pick the change up.
import {debounce, h, section} from '../dom.js';
import {call, errorView, get} from '../api.js';

export async function render(main, params, signal) {
  const type = params.get('type');
  const name = params.get('name');
  if (!type || !name) return list(main, signal);
  return edit(main, type, name, signal);
}

async function list(main, signal) {
  main.append(h('h1', null, 'Decision tables'));
  const answer = (await get('/v1/decision-tables', {signal})).json;
  main.append(h('table', {id: 'tables-list'},
    h('thead', null, h('tr', null, ['Table', 'Policy type', 'Revision', 'Rules it feeds'].map((t) => h('th', {scope: 'col'}, t)))),
    h('tbody', null, answer.tables.map((t) => h('tr', null,
      h('td', null, h('a', {href: `#/tables?type=${encodeURIComponent(t.type)}&name=${encodeURIComponent(t.name)}`}, t.name)),
      h('td', null, t.type), h('td', null, h('code', null, t.revision)), h('td', null, t.rules.length))))));
}

async function edit(main, type, name, signal) {
  const path = `/v1/decision-tables/${encodeURIComponent(type)}/${encodeURIComponent(name)}`;
  const loaded = await get(path, {signal});
  const table = loaded.json;
  let etag = loaded.headers.get('ETag');
  const grid = table.tables[0];
  if (!grid) {
    main.append(h('h1', null, name), h('p', null, 'This file has no RuleTable to edit.'));
    return;
  }
  // the file's lines before the data rows, the data rows, and the lines after them
  const firstData = grid.headerRow; // 0-based index of the first data row's line
  const rows = grid.rows.map((r) => [...r.cells]);
  const before = table.cells.slice(0, firstData);
  const after = table.cells.slice(firstData + rows.length);
  const columns = grid.columns;
  const nameColumn = columns.findIndex((c) => c.kind === 'NAME');
  let problems = [];
  let checking = false;

  const cellsNow = () => [...before, ...rows, ...after];
  const rowNumber = (i) => firstData + i + 1;

  main.append(h('h1', null, `${grid.name} (${type})`),
    h('p', {id: 'table-revision'}, `Revision ${etag} · ${table.file}`),
    table.notes ? h('p', {class: 'notes', id: 'table-notes'}, table.notes) : '');

  const datalists = h('div', null, columns.map((c, i) => c.allowed
    ? h('datalist', {id: `allowed-${i}`}, c.allowed.map((v) => h('option', {value: v}))) : ''));
  const body = h('tbody');
  const gridTable = h('table', {id: 'table-grid', class: 'table-grid'},
    h('caption', null, 'Rows are tried in order; edit a cell, or move, add and delete rows with the buttons of each row.'),
    h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Row'),
      columns.map((c) => h('th', {scope: 'col', title: `${c.kind}${c.code ? ': ' + c.code : ''}`}, c.header || c.kind,
        c.allowed ? h('span', {class: 'allowed-hint'}, ` (one of ${c.allowed.join(', ')})`) : '')),
      h('th', {scope: 'col'}, 'Actions'))),
    body);
  const problemList = h('div', {id: 'table-problems', 'aria-live': 'polite'});
  const status = h('p', {id: 'table-lint-state', role: 'status'});
  const impactButton = h('button', {type: 'button', id: 'table-impact'}, 'Show the impact (admin)');
  const applyButton = h('button', {type: 'button', id: 'table-apply'}, 'Apply (admin)');
  const addButton = h('button', {type: 'button', id: 'table-add-row'}, 'Add a row');
  const impactResult = h('div', {id: 'table-impact-result', 'aria-live': 'polite'});
  const applyResult = h('div', {id: 'table-apply-result', 'aria-live': 'polite'});

  function cellProblems(i, c) {
    const row = rowNumber(i);
    const found = problems.filter((p) => p.row === row && (p.column === c + 1 || p.column == null));
    const column = columns[c];
    const value = (rows[i][c] || '').trim();
    if (column?.allowed && value && !column.allowed.includes(value)) {
      found.push({severity: 'error', row, column: c + 1, local: true,
        problem: `'${value}' is not allowed here; one of ${column.allowed.join(', ')}`});
    }
    return found;
  }

  function allProblems() {
    const local = [];
    rows.forEach((r, i) => columns.forEach((c, j) => cellProblems(i, j).filter((p) => p.local).forEach((p) => local.push(p))));
    return [...local, ...problems];
  }

  /** Builds the grid's rows (after a row is moved, added or deleted), then marks the problems. */
  function draw(focus) {
    body.replaceChildren(...rows.map((cells, i) => {
      const label = nameColumn >= 0 ? cells[nameColumn] : `row ${rowNumber(i)}`;
      return h('tr', {'data-row': rowNumber(i)},
        h('th', {scope: 'row'}, String(rowNumber(i))),
        columns.map((c, j) => {
          const id = `cell-${i}-${j}`;
          const input = h('input', {id, value: cells[j] ?? '', 'aria-label': `${label}: ${c.header || c.kind}`,
            list: c.allowed ? `allowed-${j}` : null, class: c.kind === 'NAME' ? 'row-note' : null});
          input.addEventListener('input', () => {
            rows[i][j] = input.value;
            changed(null);
          });
          return h('td', null, input, h('span', {class: 'cell-problem', id: `${id}-problem`}));
        }),
        h('td', {class: 'row-actions'},
          h('button', {type: 'button', class: 'move-up', disabled: i === 0, 'aria-label': `Move ${label} up`,
            onclick: () => move(i, -1)}, '↑'),
          h('button', {type: 'button', class: 'move-down', disabled: i === rows.length - 1, 'aria-label': `Move ${label} down`,
            onclick: () => move(i, 1)}, '↓'),
          h('button', {type: 'button', class: 'delete-row', 'aria-label': `Delete ${label}`, onclick: () => remove(i)}, 'Delete')));
    }));
    if (focus?.cell) document.getElementById(`cell-${focus.cell[0]}-${focus.cell[1]}`)?.focus();
    if (focus?.button) body.querySelectorAll('tr')[focus.button[0]]?.querySelector(focus.button[1])?.focus();
    mark();
  }

  /** Marks each cell's problems on it (the inputs stay, so typing keeps its place), lists them all, enables Apply. */
  function mark() {
    rows.forEach((cells, i) => columns.forEach((c, j) => {
      const input = document.getElementById(`cell-${i}-${j}`);
      if (!input) return;
      const found = cellProblems(i, j).filter((p) => p.column === j + 1);
      const error = found.some((p) => p.severity === 'error');
      if (error) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (found.length) input.setAttribute('aria-describedby', `${input.id}-problem`);
      else input.removeAttribute('aria-describedby');
      input.parentElement.className = error ? 'cell-error' : found.length ? 'cell-warning' : '';
      document.getElementById(`${input.id}-problem`).textContent = found.map((p) => p.problem).join('; ');
    }));
    const every = allProblems();
    const errors = every.filter((p) => p.severity === 'error');
    problemList.replaceChildren(every.length ? h('ul', {class: errors.length ? 'error' : 'warnings'},
      every.map((p) => h('li', null, p.row ? `Row ${p.row}${p.column ? ', column ' + p.column : ''}: ` : '', p.problem))) : '');
    applyButton.disabled = checking || errors.length > 0;
    impactButton.disabled = checking || errors.length > 0;
    status.textContent = checking ? 'Checking…' : errors.length ? `${errors.length} problem(s): fix them to apply`
      : 'No problems: the table can be applied.';
  }

  function move(i, by) {
    const [row] = rows.splice(i, 1);
    rows.splice(i + by, 0, row);
    changed({button: [i + by, by < 0 ? '.move-up' : '.move-down']});
  }

  function remove(i) {
    rows.splice(i, 1);
    changed({button: [Math.max(0, i - 1), '.delete-row']});
  }

  addButton.addEventListener('click', () => {
    const copy = rows.length ? [...rows[rows.length - 1]] : columns.map(() => '');
    if (nameColumn >= 0) copy[nameColumn] = 'New row';
    rows.push(copy);
    changed({cell: [rows.length - 1, Math.max(0, nameColumn)]});
  });

  const lint = debounce(async () => {
    const text = JSON.stringify({cells: cellsNow()});
    try {
      const answer = (await call('POST', `${path}/validate`, text, {signal, contentType: 'application/json'})).json;
      if (text !== JSON.stringify({cells: cellsNow()})) return; // changed meanwhile: the next check answers
      problems = answer.problems;
    } catch (error) {
      problems = [{severity: 'error', problem: errorView(error)?.textContent || String(error)}];
    }
    checking = false;
    mark();
  }, 300);

  /** After an edit: a structural one rebuilds the grid (focus: where the focus goes), a cell's only re-marks it. */
  function changed(focus) {
    checking = true;
    impactResult.replaceChildren();
    applyResult.replaceChildren();
    problems = [];
    if (focus) draw(focus);
    else mark();
    lint();
  }

  impactButton.addEventListener('click', async () => {
    impactResult.replaceChildren(h('p', null, 'Comparing…'));
    try {
      const answer = (await call('PUT', `${path}?dryRun=true`, JSON.stringify({cells: cellsNow()}), {signal,
        contentType: 'application/json', headers: {'If-Match': etag},
        admin: 'Seeing the impact of a table needs the server\'s admin token.'})).json;
      impactResult.replaceChildren(impactView(answer.impact));
    } catch (error) {
      impactResult.replaceChildren(errorView(error) || '');
    }
    impactButton.focus();
  });

  applyButton.addEventListener('click', async () => {
    applyResult.replaceChildren(h('p', null, 'Applying…'));
    try {
      const answer = await call('PUT', path, JSON.stringify({cells: cellsNow()}), {signal, contentType: 'application/json',
        headers: {'If-Match': etag}, admin: 'Applying a table needs the server\'s admin token.'});
      etag = answer.headers.get('ETag');
      document.getElementById('table-revision').textContent = `Revision ${etag} · ${table.file}`;
      const fleet = h('ul', {id: 'table-fleet'});
      applyResult.replaceChildren(h('p', {class: 'matched', id: 'table-applied'},
        `Applied: the table is now revision ${answer.json.revision}, snapshot ${answer.json.snapshotRevision}.`),
        h('h3', null, 'Replicas'), fleet);
      await fleetStatus(fleet, answer.json.snapshotRevision, signal);
    } catch (error) {
      applyResult.replaceChildren(errorView(error) || '');
    }
    applyButton.focus();
  });

  main.append(datalists, section('Table', 'table-editor', gridTable, h('div', {class: 'buttons'}, addButton)),
    status, problemList, h('div', {class: 'buttons'}, impactButton, applyButton), impactResult, applyResult);
  draw(null);
}

/** The decisions the edit changes, side by side, with the rows that fired only before or only after. */
function impactView(impact) {
  const changes = impact.changes || [];
  return h('div', {id: 'table-impact-report'},
    h('p', null, `${impact.decisions} decisions compared (the catalog sweep and the recent decisions): `,
      h('strong', null, `${impact.changed} changed`), `, ${impact.refired} decided alike by other rows, ${impact.unaffected} unaffected.`),
    changes.length ? h('table', {id: 'table-impact-changes'},
      h('thead', null, h('tr', null, ['Decision', 'Before', 'After', 'Rows that fired only before', 'Rows that fired only after']
        .map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', null, changes.map((c) => h('tr', null,
        h('td', null, `${c.kind}: ${(c.subjects || []).join(', ')}`),
        h('td', null, side(c, 'before')), h('td', null, side(c, 'after')),
        h('td', null, (c.firedOnlyBefore || []).map(shortRule).join(', ')),
        h('td', null, (c.firedOnlyAfter || []).map(shortRule).join(', '))))))
      : h('p', null, 'No decision changes.'));
}

function side(change, which) {
  const fields = Object.entries(change.fields || {});
  if (!fields.length) return which === 'before' ? change.outcomeBefore || '' : change.outcomeAfter || '';
  return fields.map(([field, values]) => `${field}: ${JSON.stringify(values?.[which] ?? values)}`).join('; ');
}

function shortRule(rule) {
  return rule.replace(/^.*\.(?=[^.]*$)/, '');
}

/** What /v1/status says of the source, for each replica that answers, until every one seen serves the snapshot. */
async function fleetStatus(list, snapshotRevision, signal) {
  const seen = new Map();
  for (let attempt = 0; attempt < 10; attempt++) {
    const status = (await get('/v1/status', {signal})).json;
    const source = status.source || {};
    const replica = source.replica || source.kind || 'this server';
    const serves = status.snapshotRevision === snapshotRevision || source.servesLatest === true;
    seen.set(replica, {serves, source});
    list.replaceChildren(...[...seen].map(([name, s]) => h('li', {class: s.serves ? 'matched' : null},
      `${name} (${s.source.kind || 'source'}): ${s.serves ? 'serves the change' : 'not yet'}`)));
    if ([...seen.values()].every((s) => s.serves)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
