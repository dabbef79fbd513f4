// Job packers built from the C++ job descriptions (cpp/bindings/job_fields.h),
// read once in init(): each field's name, kind, float offset, role, enum
// names or valid range, and a packed job holding every default. Defaults,
// layouts, enum names and ranges therefore live in C++ only; the validators
// here check types, shapes and each number's described range, and name the
// parameter. Rules joining several fields (minAngle <= maxAngle, ...) are
// C++ Validate()'s alone. Results are described the same way
// (cpp/bindings/solvers.h) and read by one compiled reader each (ResultLayout).
import { fillQuat, fillTransform, quatFrom, readEnum, readNumber, readQuat, readTransform, readVec3, readVector, transformFrom } from './readers.js';
import { nameSet } from './options.js';

/**
 * Reads the descriptions ("job=floats@defaults|field,...;...", at the address
 * `wasm.jobDescriptions()` returns) into { [job]: JobLayout }, copying each
 * defaults buffer out of WASM memory. A "job.result" description (its fields'
 * role "output") becomes that job's `result` (a ResultLayout).
 */
export function readJobDescriptions(wasm) {
  const heapF32 = wasm.HEAPF32;
  const text = textAt(wasm, wasm.jobDescriptions());
  const jobs = {};
  for (const entry of text.split(';')) {
    const bar = entry.indexOf('|'); // enum names use '|' too
    const head = entry.slice(0, bar);
    const list = entry.slice(bar + 1);
    const [name, rest] = head.split('=');
    const [floats, pointer, bits] = rest.split('@').map(Number);
    const fields = list.split(',').map(readField);
    const heap = bits === 64 ? new Float64Array(heapF32.buffer) : heapF32;
    const start = pointer / heap.BYTES_PER_ELEMENT;
    const defaults = heap.slice(start, start + floats);
    if (name.endsWith(RESULT)) jobs[name.slice(0, -RESULT.length)].result = new ResultLayout(name, floats, defaults, fields);
    else jobs[name] = new JobLayout(name, floats, defaults, fields);
  }
  return Object.freeze(jobs);
}

const RESULT = '.result';

/**
 * The NUL-terminated text C++ keeps at `pointer` (descriptions, batch
 * layouts), decoded natively: an Embind std::string copies it byte by byte
 * in JS, which cost milliseconds of init().
 */
export function textAt(wasm, pointer) {
  const bytes = wasm.HEAPU8;
  return new TextDecoder().decode(bytes.subarray(pointer, bytes.indexOf(0, pointer)));
}

// "name:kind:offset:role" then extras (cpp/bindings/describe.h): an
// enum's "first:names", a number's "[min max]", "~name=value|..." presets and
// "=value" fallback.
function readField(spec) {
  const [name, kind, offset, role, ...extras] = spec.split(':');
  const f = { name, kind, offset: Number(offset), role, enumFirst: 0, enumNames: undefined, range: undefined, presets: undefined, fallback: undefined };
  for (let i = 0; i < extras.length; i++) {
    const e = extras[i];
    if (e[0] === '[' || e[0] === '(') f.range = readRange(e);
    else if (e[0] === '~') f.presets = Object.freeze(Object.fromEntries(e.slice(1).split('|').map((p) => p.split('=')).map(([k, v]) => [k, bitsToNumber(v)])));
    else if (e[0] === '=') f.fallback = bitsToNumber(e.slice(1));
    else {
      f.enumFirst = Number(e);
      f.enumNames = Object.freeze(extras[++i].split('|'));
    }
  }
  return Object.freeze(f);
}

// A number as TextOut::PutNumber (cpp/bindings/describe.h) writes it: "x" + the 16 hex digits of its bits.
const bits = /* @__PURE__ */ new DataView(/* @__PURE__ */ new ArrayBuffer(8));
function bitsToNumber(text) {
  // Two 32-bit halves: parsing through BigInt cost about 1.5 ms of init().
  bits.setUint32(0, parseInt(text.slice(1, 9), 16));
  bits.setUint32(4, parseInt(text.slice(9, 17), 16));
  return bits.getFloat64(0);
}

// "[min max]" with "(" / ")" for open bounds.
function readRange(text) {
  const [min, max] = text.slice(1, -1).split(' ').map(bitsToNumber);
  return Object.freeze({ min, max, minOpen: text[0] === '(', maxOpen: text[text.length - 1] === ')' });
}

const showBound = (x) => (Math.abs(x - Math.PI) < 1e-6 ? 'pi' : String(x));

/** The range as error messages state it: "in [0, pi]", "a finite number >= 1", "finite", "> 0 (Infinity for no limit)". */
export function rangeText({ min, max, minOpen, maxOpen }) {
  if (min === -Infinity && max === Infinity) return minOpen && maxOpen ? 'finite' : 'a number';
  if (max === Infinity) {
    const bound = `${minOpen ? '>' : '>='} ${showBound(min)}`;
    return maxOpen ? `a finite number ${bound}` : `${bound} (Infinity for no limit)`;
  }
  if (min === -Infinity) return `${maxOpen ? 'a finite number ' : ''}${maxOpen ? '<' : '<='} ${showBound(max)}`;
  return `in ${minOpen ? '(' : '['}${showBound(min)}, ${showBound(max)}${maxOpen ? ')' : ']'}`;
}

/** Whether `x` lies in `range` (NaN never does). */
export function inRange(x, { min, max, minOpen, maxOpen }) {
  return (minOpen ? x > min : x >= min) && (maxOpen ? x < max : x <= max);
}

/**
 * Reads number field `f` (kind number, double, optionalNumber or integer, with
 * its described range), checked as C++ sees it: a 'number' (a C++ float)
 * rounded to float32. A preset name gives its value. Throws a
 * TypeError/RangeError naming the field.
 */
export function readRanged(value, f) {
  if (typeof value === 'number' && inRange(f.kind === 'number' ? Math.fround(value) : value, f.range) &&
    (f.kind !== 'integer' || Number.isInteger(value))) return value;
  if (typeof value === 'string' && f.presets !== undefined) {
    readEnum(value, f.name, Object.keys(f.presets));
    return f.presets[value];
  }
  if (typeof value !== 'number') readNumber(value, f.name); // throws the TypeError
  if (f.kind === 'integer' && !Number.isInteger(value) && Number.isFinite(value)) {
    throw new RangeError(`${f.name}: must be an integer, got ${value}`);
  }
  throw new RangeError(`${f.name}: must be ${rangeText(f.range)}`);
}

/** Float offset of a solver's result after its packed job (kOut in cpp/bindings/solvers.h). */
export const OUT = 64;

const SIZES = Object.freeze({ number: 1, double: 1, integer: 1, boolean: 1, vec2: 2, enum: 1, vec3: 3, quat: 4, transform: 7, optionalVec3: 4, optionalNumber: 2 });

// Writes `value` (not undefined) of field `f` at s[o + f.offset], or throws naming it.
function writeField(f, value, s, o) {
  const at = o + f.offset;
  switch (f.kind) {
    case 'number': case 'double': case 'integer': s[at] = readRanged(value, f); break;
    case 'vec2': readVector(value, f.name, 2, s, at); break;
    case 'boolean': s[at] = readBoolean(value, f.name); break;
    case 'optionalNumber':
      // null (setOptions only) clears the number.
      if (value === null) {
        s[at + 1] = 0;
      } else {
        s[at] = readRanged(value, f);
        s[at + 1] = 1;
      }
      break;
    case 'enum': s[at] = f.enumFirst + readEnum(value, f.name, f.enumNames); break;
    case 'vec3': readVec3(value, f.name, s, at); break;
    case 'quat': readQuat(value, f.name, s, at); break;
    case 'transform': readTransform(value, f.name, s, at); break;
    case 'optionalVec3':
      // null (setOptions only) clears the vector.
      if (value === null) {
        s[at + 3] = 0;
      } else {
        readVec3(value, f.name, s, at);
        s[at + 3] = 1;
      }
      break;
    default: throw new Error(`ikpd: unknown field kind ${f.kind}`);
  }
}

function readBoolean(value, name) {
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected a boolean, got ${value === null ? 'null' : typeof value}`);
  return value ? 1 : 0;
}

// Source of the test that number field `f`'s value `v` is valid, with the
// bounds inlined (the inRange / readRanged rules, as fast as a hand-written check).
function validSource(f) {
  const { min, max, minOpen, maxOpen } = f.range;
  const x = f.kind === 'number' ? '(x = Math.fround(v))' : '(x = v)';
  const integer = f.kind === 'integer' ? ' && Number.isInteger(v)' : '';
  return `typeof v === 'number' && ${x} ${minOpen ? '>' : '>='} ${min} && x ${maxOpen ? '<' : '<='} ${max}${integer}`;
}

// Source of the statement writing field `f` (its value in `v`) at s[f.offset..].
// `i`: the field's index in FIELDS (the packer's fields).
function writeSource(f, i) {
  const at = f.offset;
  const name = JSON.stringify(f.name);
  switch (f.kind) {
    case 'number': case 'double': case 'integer': return `s[${at}] = ${validSource(f)} ? v : readRanged(v, FIELDS[${i}]);`;
    case 'optionalNumber': return `s[${at}] = ${validSource(f)} ? v : readRanged(v, FIELDS[${i}]); s[${at + 1}] = 1;`;
    case 'vec2': return `readVector(v, ${name}, 2, s, ${at});`;
    case 'boolean': return `s[${at}] = v === true ? 1 : v === false ? 0 : readBoolean(v, ${name});`;
    case 'enum': return `s[${at}] = ${f.enumFirst} + readEnum(v, ${name}, ENUM_${i});`;
    case 'vec3': return `readVec3(v, ${name}, s, ${at});`;
    case 'quat': return `readQuat(v, ${name}, s, ${at});`;
    case 'transform': return `readTransform(v, ${name}, s, ${at});`;
    case 'optionalVec3': return `readVec3(v, ${name}, s, ${at}); s[${at + 3}] = 1;`;
    default: throw new Error(`ikpd: unknown field kind ${f.kind}`);
  }
}

/**
 * Compiles a packer for `fields` (each read with a constant property name, as a
 * hand-written packer would): a required input must be given; any other field
 * not given gets its default (an optional vector: "not given").
 */
function compilePacker(fields, defaults) {
  const lines = [];
  fields.forEach((f, i) => {
    const read = `v = o[${JSON.stringify(f.name)}];`;
    if (f.role === 'input') {
      lines.push(read, writeSource(f, i));
      return;
    }
    const fill = [];
    for (let k = 0; k < SIZES[f.kind]; k++) fill.push(`s[${f.offset + k}] = ${defaults[f.offset + k]};`);
    lines.push(read, `if (v === undefined) { ${fill.join(' ')} } else { ${writeSource(f, i)} }`);
  });
  const enums = fields.map((f, i) => (f.kind === 'enum' ? `const ENUM_${i} = ${JSON.stringify(f.enumNames)};` : '')).filter(Boolean);
  // Code generated from the C++ descriptions only (names, offsets, float defaults).
  // eslint-disable-next-line no-new-func
  return new Function('readRanged', 'readBoolean', 'readEnum', 'readVector', 'readVec3', 'readQuat', 'readTransform', 'FIELDS',
    `${enums.join('\n')}\nreturn function pack(o, s) {\nlet v, x;\n${lines.join('\n')}\n};`)(
    readRanged, readBoolean, readEnum, readVector, readVec3, readQuat, readTransform, fields);
}

/** A described struct packed as floats: a job or a result. */
class PackedLayout {
  constructor(name, floats, defaults, fields) {
    this.name = name;
    /** Floats of the packed struct. */
    this.floats = floats;
    /** The struct packed with every default (a Float32Array, or Float64Array for 64-bit descriptions). */
    this.defaults = defaults;
    /** Every field, in layout order. */
    this.fields = fields;
    this.byName = Object.freeze(Object.fromEntries(fields.map((f) => [f.name, f])));
  }
}

/** One job's packed layout, with packers for single calls, solvers and batches. */
export class JobLayout extends PackedLayout {
  constructor(name, floats, defaults, fields) {
    super(name, floats, defaults, fields);
    /** The layout of the job's result (a ResultLayout; set by readJobDescriptions), if it has one. */
    this.result = undefined;
    this.inputs = fields.filter((f) => f.role !== 'option');
    this.options = fields.filter((f) => f.role === 'option');
    /** Every field's name, as a Set (the names checkOptionNames accepts for a single call). */
    this.names = nameSet(fields.map((f) => f.name));
    /** Option name → default value as JS sees it (enum names, arrays, numbers; an optional number's fallback; undefined for optional vectors). */
    this.defaultValues = Object.freeze(Object.fromEntries(fields.map((f) => [f.name, this.#defaultOf(f)])));
  }

  #defaultOf(f) {
    const d = this.defaults;
    const o = f.offset;
    switch (f.kind) {
      case 'number': case 'double': case 'integer': return d[o];
      case 'vec2': return [d[o], d[o + 1]];
      case 'boolean': return d[o] !== 0;
      case 'enum': return f.enumNames[d[o] - f.enumFirst];
      case 'vec3': return [d[o], d[o + 1], d[o + 2]];
      case 'quat': return [d[o], d[o + 1], d[o + 2], d[o + 3]];
      case 'transform': return { position: [d[o], d[o + 1], d[o + 2]], rotation: [d[o + 3], d[o + 4], d[o + 5], d[o + 6]] };
      case 'optionalNumber': return d[o + 1] !== 0 ? d[o] : f.fallback;
      default: return undefined;
    }
  }

  /**
   * pack(options, s): packs a whole job at s[0..floats), every field given in
   * `options` or its default (required inputs must be given). Compiled on
   * first use, like every generated function here: init() compiles none.
   */
  get pack() {
    return compileOnce(this, 'pack', () => compilePacker(this.fields, this.defaults));
  }

  /** packInputs(frame, s): packs the per-frame inputs only (a prepared solver's solve). */
  get packInputs() {
    return compileOnce(this, 'packInputs', () => compilePacker(this.inputs, this.defaults));
  }

  /**
   * Writes the options named in `keys` that `options` gives (others keep what
   * s holds); null clears an optional vector. Unknown keys are left to the caller.
   */
  packOptions(options, s, o = 0, keys = undefined) {
    for (const f of this.options) {
      if (keys !== undefined && !keys.includes(f.name)) continue;
      const value = options[f.name];
      if (value !== undefined) writeField(f, value, s, o);
    }
  }
}

// Source of the property `f` of a new result, read from r[o + f.offset..].
function newSource(f) {
  const key = JSON.stringify(f.name);
  const at = `o + ${f.offset}`;
  switch (f.kind) {
    case 'transform': return `${key}: transformFrom(r, ${at})`;
    case 'quat': return `${key}: quatFrom(r, ${at})`;
    case 'boolean': return `${key}: r[${at}] !== 0`;
    case 'number': case 'integer': return `${key}: r[${at}]`;
    default: throw new Error(`ikpd: unknown result field kind ${f.kind}`);
  }
}

// Source of the statement reading result field `f` from r[o + f.offset..] into
// `result` (a joint or array is reused and stored only when it is new).
function fillSource(f) {
  const key = JSON.stringify(f.name);
  const at = `o + ${f.offset}`;
  switch (f.kind) {
    case 'transform': return `x = result[${key}]; y = fillTransform(x, r, ${at}); if (y !== x) result[${key}] = y;`;
    case 'quat': return `x = result[${key}]; y = fillQuat(x, r, ${at}); if (y !== x) result[${key}] = y;`;
    case 'boolean': return `result[${key}] = r[${at}] !== 0;`;
    case 'number': case 'integer': return `result[${key}] = r[${at}];`;
    default: throw new Error(`ikpd: unknown result field kind ${f.kind}`);
  }
}

/**
 * A solver's packed result (cpp/bindings/solvers.h), read by two functions
 * compiled from its description: read(r, o) returns a new result object (its
 * fields in layout order) from the result packed at r[o..o+floats);
 * fill(result, r, o) writes it into `result` (a previous result, whose joints
 * and arrays it reuses) and returns it. Two functions, so each sees one shape.
 * Its `defaults` are a default-constructed C++ result (identity joints, not
 * reached, distance 0).
 */
export class ResultLayout extends PackedLayout {
  /** read(r, o): a new result object (compiled on first use). */
  get read() {
    return compileOnce(this, 'read', () => compileReader(`function read(r, o) {\nreturn { ${this.fields.map(newSource).join(', ')} };\n}`));
  }

  /**
   * The single calls' rule: a new result when `result` is undefined, else
   * `result` (a previous one) refilled in place and returned.
   */
  readInto(result, r, o) {
    return result === undefined ? this.read(r, o) : this.fill(result, r, o);
  }

  /** fill(result, r, o): `result` refilled in place and returned (compiled on first use). */
  get fill() {
    return compileOnce(this, 'fill', () =>
      compileReader(`function fill(result, r, o) {\nlet x, y;\n${this.fields.map(fillSource).join('\n')}\nreturn result;\n}`));
  }
}

// A result reader from its source (code generated from the C++ descriptions only: names, offsets).
function compileReader(source) {
  // eslint-disable-next-line no-new-func
  return new Function('fillTransform', 'fillQuat', 'transformFrom', 'quatFrom', `return ${source};`)(
    fillTransform, fillQuat, transformFrom, quatFrom);
}

// `make()` stored as `object`'s own, read-only property `key` (shadowing the
// getter that called this), so a generated function is compiled only when
// first used and then read like a plain field.
function compileOnce(object, key, make) {
  const value = make();
  Object.defineProperty(object, key, { value, enumerable: true });
  return value;
}
