// Builds elements from data. Text is always set as text: nothing from a response is parsed as HTML.
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

const SVG = 'http://www.w3.org/2000/svg';

export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.setAttribute('class', value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function ref(r) {
  if (!r) return '—';
  return r.revision ? `${r.path}:${r.revision}` : r.path;
}

export function json(value) {
  return JSON.stringify(value, null, 2);
}

export function debounce(fn, millis) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), millis);
  };
}

export function section(title, id, ...children) {
  return h('section', {'aria-labelledby': id}, h('h2', {id}, title), ...children);
}
