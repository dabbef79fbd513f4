// Option names: the one rule every entry point of ikpd and ikpd/three
// follows (README, "Guarantees"): an unknown key is a TypeError naming it and
// the nearest valid name.

/**
 * The one rule for option names, used by every entry point (core and
 * ikpd/three): a key of `options` whose value is not undefined and that is not
 * in `known` (a Set of names, from the C++ description where there is one) is
 * a TypeError naming it, with the nearest valid name. `prefix` names a nested
 * group ('spine.'); `where` the entry point.
 */
export function checkOptionNames(options, known, where, prefix = '') {
  for (const key in options) {
    if (!known.has(key) && Object.hasOwn(options, key) && options[key] !== undefined) {
      throw new TypeError(unknownOptionMessage(key, known, where, prefix));
    }
  }
  return options;
}

// The message of checkOptionNames for `key`: it starts with the key (after
// `prefix`), or, for a key that is no identifier ('0', ' '), with the object's
// name and the key quoted.
function unknownOptionMessage(key, known, where, prefix) {
  const names = [...known];
  const close = nearestName(key, names);
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? `${prefix}${key}: unknown option` : `${prefix.slice(0, -1) || 'options'}: unknown option ${JSON.stringify(key)}`;
  return `${name} of ${where}${close === undefined ? '' : ` (did you mean '${close}'?)`}; expected one of ${names.join(', ')}`;
}

// The valid name nearest to `key` (edit distance ignoring case, at most 2,
// or 3 for names longer than 6 letters), if any.
function nearestName(key, names) {
  let best;
  let bestDistance = key.length > 6 ? 3 : 2;
  for (const name of names) {
    const d = editDistance(name.toLowerCase(), key.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

/** The Set of option names for checkOptionNames: `names` (arrays or strings) flattened. */
export const nameSet = (...names) => Object.freeze(new Set(names.flat()));
