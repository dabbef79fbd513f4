// N-bone chains, CCD or FABRIK (docs/ik/chains.md; typings web/types/ik/chain.d.ts):
// solveChain, and the joint limits the rig and the prepared chain solver pack too.
import { fillTransform, readArray, readEnum, readNumber, readOptions, readTransforms, readVec3, transformFrom } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';

const LIMIT_TYPES = ['cone', 'euler'];
export const MAX_CHAIN_JOINTS = 128;
export const LIMIT_FLOATS = 11;
const NO_LIMITS = Object.freeze([]);

// Writes n solved joints (f[o..], 7 floats each) and the summary after them
// (`summary`, the chain's ResultLayout) into a previous solveChain result,
// reusing its arrays where they are arrays.
function fillChainResult(result, n, f, o, summary) {
  let joints = result.joints;
  if (!Array.isArray(joints)) joints = result.joints = new Array(n);
  if (joints.length !== n) joints.length = n;
  for (let i = 0; i < n; i++, o += 7) joints[i] = fillTransform(joints[i], f, o);
  return summary.fill(result, f, o);
}

// Packs one joint limit (or none) at f[o..o+11): kind angle axis(3) min(3) max(3).
export function readLimit(limit, name, f, o) {
  f.fill(0, o, o + LIMIT_FLOATS);
  if (limit === null || limit === undefined) return;
  readOptions(limit, name);
  const kind = readEnum(limit.type, `${name}.type`, LIMIT_TYPES);
  f[o] = kind + 1;
  if (kind === 0) {
    f[o + 1] = readNumber(limit.angle, `${name}.angle`);
    if (limit.axis !== undefined) readVec3(limit.axis, `${name}.axis`, f, o + 2);
  } else {
    readVec3(limit.min ?? [-Math.PI, -Math.PI, -Math.PI], `${name}.min`, f, o + 5);
    readVec3(limit.max ?? [Math.PI, Math.PI, Math.PI], `${name}.max`, f, o + 8);
  }
}

export function createChainApi(core) {
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let solveChainNative = null;
  const { chain } = core.jobs;
  // The option names solveChain takes: its description's, and the arrays it packs itself.
  const CHAIN_NAMES = nameSet([...chain.names], 'joints', 'limits');

  /**
   * N-bone chain IK (CCD or FABRIK); see ChainOptions in web/types/ik/chain.d.ts.
   * With `result` (a previous result), its arrays are filled in place and it is returned.
   */
  // The packed job, then joints, limits (cpp/bindings/ik/chain_job.h); made
  // once: a closure over each call's values would be garbage on every call.
  const packChain = (f, options, joints, limits) => {
    chain.pack(options, f);
    let o = readTransforms(joints, 'joints', f, chain.floats);
    for (let i = 0; i < limits.length; i++, o += LIMIT_FLOATS) readLimit(limits[i], `limits[${i}]`, f, o);
  };

  function solveChain(options, result) {
    readOptions(options);
    checkOptionNames(options, CHAIN_NAMES, 'solveChain');
    if (result !== undefined) readOptions(result, 'result');
    const joints = readArray(options.joints, 'joints');
    const n = joints.length;
    if (n < 2) throw new RangeError(`joints: needs at least 2 joints, got ${n}`);
    if (n > MAX_CHAIN_JOINTS) throw new RangeError(`joints: at most ${MAX_CHAIN_JOINTS} joints, got ${n}`);
    const limits = options.limits === undefined ? NO_LIMITS : readArray(options.limits, 'limits');
    if (limits.length > MAX_CHAIN_JOINTS) throw new RangeError(`limits: at most ${MAX_CHAIN_JOINTS} entries`);
    core.fillScratch(packChain, options, joints, limits);
    let o = chain.floats + 7 * n + LIMIT_FLOATS * limits.length;
    core.check((solveChainNative ??= core.area('ik').solveChain)(core.scratchPointer, n, limits.length));
    const out = core.scratch;
    if (result !== undefined) return fillChainResult(result, n, out, o, chain.result);
    const solved = new Array(n);
    for (let i = 0; i < n; i++, o += 7) solved[i] = transformFrom(out, o);
    return Object.assign({ joints: solved }, chain.result.read(out, o));
  }

  return { solveChain };
}
