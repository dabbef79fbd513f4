// The packed layouts of the described jobs and results. Each layout is written
// at build time, from the C++ description (cpp/src/<area>/fields.h), into
// web/src/<area>/described.js: every field's name, kind, float offset, role,
// enum names or valid range (with the error text C++ gives), a packed job
// holding every default, the packers and the result readers. Defaults,
// layouts, enum names and ranges therefore live in C++ only; the checks here
// are the ones every packer shares: types, shapes and each number's described
// range, naming the parameter. Rules joining several fields (minAngle <=
// maxAngle, ...) are C++ Validate()'s alone.
import { readBoolean, readEnum, readNumber, readQuat, readTransform, readVec3, readVector } from './readers.js';
import { nameSet } from './options.js';

export { readBoolean }; // for the generated descriptions (web/src/<area>/described.js)

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
  throw new RangeError(`${f.name}: must be ${f.range.text}`);
}

/** Float offset of a solver's result after its packed job (kOut in cpp/bindings/ik/solvers.h). */
export const OUT = 64;

// Writes `value` (not undefined) of field `f` at s[o + f.offset], or throws naming it.
function writeField(f, value, s, o) {
  const at = o + f.offset;
  switch (f.kind) {
    case 'number': case 'double': case 'integer': s[at] = value === null && f.derived ? NaN : readRanged(value, f); break;
    case 'vec2': readVector(value, f.name, 2, s, at); break;
    case 'boolean': s[at] = readBoolean(value, f.name) ? 1 : 0; break;
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

const SIZES = /* @__PURE__ */ Object.freeze({ number: 1, double: 1, integer: 1, boolean: 1, vec2: 2, enum: 1, vec3: 3, quat: 4, transform: 7, optionalVec3: 4, optionalNumber: 2 });

// pack()'s rule for one field: not given (undefined) takes its default; null
// is a value (an error for an optional vector or number, "derive it" for a
// Derived number), unlike setOptions' null, which clears.
function packField(f, value, s, defaults) {
  if (value === undefined) {
    for (let k = 0; k < SIZES[f.kind]; k++) s[f.offset + k] = defaults[f.offset + k];
  } else if (value === null && f.kind === 'optionalNumber') {
    readRanged(value, f); // throws the TypeError
  } else if (value === null && f.kind === 'optionalVec3') {
    readVec3(value, f.name, s, f.offset); // throws the TypeError
  } else {
    writeField(f, value, s, 0);
  }
}

/**
 * A description's fields as the generated files give them ([name, kind,
 * offset, role, extras?]), as frozen objects of one shape: name, kind, float
 * offset, role, enumFirst, enumNames, range ({ min, max, minOpen, maxOpen,
 * text }: the error text C++ gives), presets, fallback, derived.
 */
export function fieldList(entries) {
  return Object.freeze(entries.map(([name, kind, offset, role, x = {}]) => Object.freeze({
    name, kind, offset, role,
    enumFirst: x.enumFirst ?? 0,
    enumNames: x.enumNames && Object.freeze(x.enumNames),
    range: x.range && Object.freeze({ min: x.range[0], max: x.range[1], minOpen: x.range[2], maxOpen: x.range[3], text: x.range[4] }),
    presets: x.presets && Object.freeze(x.presets),
    fallback: x.fallback,
    derived: x.derived ?? false,
  })));
}

/**
 * A batch's per-item fields as the generated file gives them ([group, name,
 * components, sources, start]), as frozen objects: the field's group ('in',
 * 'out', 'state') and name, its components, its index in the batch, the
 * described field(s) it carries per item (two for a pole: point, direction)
 * and from which of their floats.
 */
export function batchLayout(entries) {
  return Object.freeze(entries.map(([group, name, components, sources, start], index) =>
    Object.freeze({ group, name, components, index, sources: Object.freeze(sources), start })));
}

/** A described struct packed as floats: a job or a result. */
class PackedLayout {
  constructor({ name, floats, bits, defaults, fields }) {
    this.name = name;
    /** Floats of the packed struct. */
    this.floats = floats;
    /** The struct packed with every default (a Float32Array, or Float64Array for 64-bit descriptions). */
    this.defaults = bits === 64 ? Float64Array.from(defaults) : Float32Array.from(defaults);
    /** Every field, in layout order. */
    this.fields = fields;
    this.byName = Object.freeze(Object.fromEntries(fields.map((f) => [f.name, f])));
  }
}

/**
 * One job's packed layout (written by the generator into
 * web/src/<area>/described.js), with its packers for single calls, solvers
 * and batches.
 */
export class JobLayout extends PackedLayout {
  /**
   * `layout.pack(options, s)` packs a whole job at s[0..floats), every field
   * given in `options` or its default (required inputs must be given;
   * generated for the solver jobs, a loop over the fields for settings);
   * `layout.packInputs(frame, s)` packs the per-frame inputs only (a
   * prepared solver's solve); `layout.result` is the result's ResultLayout,
   * if the job has one.
   */
  constructor({ pack, packInputs, result, ...layout }) {
    super(layout);
    // Settings objects (no per-frame inputs) are packed when they change, not
    // per call: the generic packer serves them; solver jobs get generated ones.
    this.pack = pack ?? ((options, s) => {
      for (const f of this.fields) packField(f, options[f.name], s, this.defaults);
    });
    this.packInputs = packInputs;
    this.result = result;
    this.inputs = this.fields.filter((f) => f.role !== 'option');
    this.options = this.fields.filter((f) => f.role === 'option');
    /** Every field's name, as a Set (the names checkOptionNames accepts for a single call). */
    this.names = nameSet(this.fields.map((f) => f.name));
    /** Option name → default value as JS sees it (enum names, arrays, numbers; an optional number's fallback; undefined for optional vectors). */
    this.defaultValues = Object.freeze(Object.fromEntries(this.fields.map((f) => [f.name, this.#defaultOf(f)])));
  }

  #defaultOf(f) {
    const d = this.defaults;
    const o = f.offset;
    switch (f.kind) {
      case 'number': case 'double': case 'integer': return f.derived && Number.isNaN(d[o]) ? null : d[o];
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

/**
 * A solver's packed result, read by its two generated readers: read(r, o)
 * returns a new result object (its fields in layout order) from the result
 * packed at r[o..o+floats); fill(result, r, o) writes it into `result` (a
 * previous result, whose joints and arrays it reuses) and returns it. Two
 * functions, so each sees one shape. Its `defaults` are a default-constructed
 * C++ result (identity joints, not reached, distance 0).
 */
export class ResultLayout extends PackedLayout {
  constructor({ read, fill, ...layout }) {
    super(layout);
    this.read = read;
    this.fill = fill;
  }

  /**
   * The single calls' rule: a new result when `result` is undefined, else
   * `result` (a previous one) refilled in place and returned.
   */
  readInto(result, r, o) {
    return result === undefined ? this.read(r, o) : this.fill(result, r, o);
  }
}
