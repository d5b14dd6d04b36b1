// The decision explorer: one page, a view per hash route (#/, #/decision, #/dependencies, #/rollout, #/lookup, #/policy, #/tables).
import {h} from './dom.js';
import {errorView, forgetToken, showTokenState} from './api.js';
import * as catalog from './views/catalog.js';
import * as decision from './views/decision.js';
import * as dependencies from './views/dependencies.js';
import * as rollout from './views/rollout.js';
import * as lookup from './views/lookup.js';
import * as policy from './views/policy.js';
import * as tables from './views/tables.js';

const VIEWS = {'': catalog, catalog, decision, dependencies, rollout, lookup, policy, tables};

function parseHash() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [name, query] = hash.split('?');
  return {name: name || '', params: new URLSearchParams(query || '')};
}

let current = null;

async function route() {
  const {name, params} = parseHash();
  const view = VIEWS[name];
  const main = document.getElementById('view');
  const viewName = view === catalog ? 'catalog' : name;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.view === viewName) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  current?.abort();
  current = new AbortController();
  main.replaceChildren();
  if (!view) {
    main.append(h('h1', null, 'Not found'), h('p', null, 'No view named ', h('code', null, name), '. ', h('a', {href: '#/'}, 'Back to the catalog')));
    return;
  }
  try {
    await view.render(main, params, current.signal);
  } catch (error) {
    const shown = errorView(error);
    if (shown) main.append(shown);
  }
  const heading = main.querySelector('h1');
  document.title = (heading ? heading.textContent + ' · ' : '') + 'Arbiter';
}

window.addEventListener('hashchange', () => {
  route().then(() => document.getElementById('view').focus({preventScroll: true}));
});
document.getElementById('forget-token').addEventListener('click', forgetToken);
showTokenState();
route();
