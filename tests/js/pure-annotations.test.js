// Every object built at module scope in web/ (`const _v = new Vector3()`,
// `new Set([...])`, `new FinalizationRegistry(...)`) is marked
// `/* @__PURE__ */ new X(...)`, so a bundler drops it with the exports that use
// it when an app imports only some of them (package.json "sideEffects": false).
// The marker must come before `new`: `new /* @__PURE__ */ X()` is not one.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const web = new URL('../../web/', import.meta.url);
const PURE = /\/\*\s*[#@]__PURE__\s*\*\//g;

// The source with comments, strings and template text blanked (same length, so
// offsets map to lines) and each PURE marker kept as the token `@P@`.
function blank(source) {
  const marked = source.replace(PURE, (m) => `@P@${' '.repeat(m.length - 3)}`);
  let out = '';
  for (let i = 0; i < marked.length;) {
    const c = marked[i], next = marked[i + 1];
    let end = i + 1;
    if (c === '/' && next === '/') end = marked.indexOf('\n', i) < 0 ? marked.length : marked.indexOf('\n', i);
    else if (c === '/' && next === '*') end = marked.indexOf('*/', i + 2) + 2;
    else if (c === "'" || c === '"' || c === '`') {
      for (end = i + 1; end < marked.length && marked[end] !== c; end++) if (marked[end] === '\\') end++;
      end++;
    } else {
      out += c;
      i = end;
      continue;
    }
    out += marked.slice(i, end).replace(/[^\n]/g, ' ');
    i = end;
  }
  return out;
}

// [line, text] of every `new X(` evaluated at module scope (not inside a
// function body, an arrow function or a class body) without a marker before it.
function unmarked(source) {
  const text = blank(source);
  const stack = []; // per open bracket: true when code in it runs later (a function or class body)
  let arrows = []; // bracket depths at which an arrow function's expression body is open
  const deferred = () => stack.includes(true) || arrows.length > 0;
  const found = [];
  const before = (i) => text.slice(0, i).trimEnd();
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '(' || c === '[') {
      const prev = before(i);
      // A function's or class's body, or a function's parameters (their defaults run at each call).
      const body = c === '{'
        ? prev.endsWith(')') || prev.endsWith('=>') || /\bclass\b[\w$\s.]*$/.test(prev) || /\b(get|set|static)\s*$/.test(prev)
        : c === '(' && /\bfunction\b[\s\w$*]*$/.test(prev);
      stack.push(body);
    } else if (c === '}' || c === ')' || c === ']') {
      stack.pop();
      arrows = arrows.filter((depth) => depth <= stack.length);
    } else if ((c === ',' || c === ';') && arrows.at(-1) === stack.length) {
      arrows.pop();
    } else if (c === '=' && text[i + 1] === '>' && !/^\s*\{/.test(text.slice(i + 2))) {
      arrows.push(stack.length);
    } else if (text.startsWith('new', i) && !/[\w$.]/.test(text[i - 1] ?? '') && /^new\s+(@P@\s*)?[A-Za-z_$][\w$.]*\s*\(/.test(text.slice(i))) {
      if (!deferred() && !before(i).endsWith('@P@')) {
        const line = text.slice(0, i).split('\n').length;
        found.push([line, source.split('\n')[line - 1].trim()]);
      }
    }
  }
  return found;
}

describe('module-scope objects in web/ are marked /* @__PURE__ */', () => {
  it('finds what it must (the check can fail)', () => {
    const bad = [
      "const _v = new Vector3();",
      "const _q = new /* @__PURE__ */ Quaternion();",
      "export const KEYS = Object.freeze({ axes: new Set(['x']) });",
    ].join('\n');
    expect(unmarked(bad).map(([line]) => line)).toEqual([1, 2, 3]);
    const good = [
      "const _v = /* @__PURE__ */ new Vector3();",
      "export const names = (...n) => Object.freeze(new Set(n));",
      "function make(out = new Vector3()) { return new Vector3(); }",
      "class A { b = new Map(); static c() { return new Set(); } }",
      "const f = () => { const x = new Set(); };",
      "// new Vector3() in a comment, 'new Set()' in a string",
    ].join('\n');
    expect(unmarked(good)).toEqual([]);
  });

  const files = readdirSync(web, { recursive: true })
    .filter((f) => /\.m?js$/.test(f) && !f.startsWith('lib'))
    .sort();
  it.each(files)('web/%s', (file) => {
    expect(unmarked(readFileSync(new URL(file, web), 'utf8'))).toEqual([]);
  });
});
