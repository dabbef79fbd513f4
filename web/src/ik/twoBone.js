// Two-bone IK (docs/ik/two-bone.md; typings web/types/ik/twoBone.d.ts). Inputs are packed
// as float32 into core.scratch in the job layout C++ describes (web/src/fields.js).
import { readOptions } from '../readers.js';
import { checkOptionNames } from '../options.js';
import { OUT } from '../fields.js';

export function createTwoBoneApi(core) {
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let solveTwoBoneNative = null;
  const pointer = core.scratchPointer;
  const { twoBone: twoBoneJob } = core.jobs;
  // Made once: a closure over each call's options would be garbage on every call.
  const pack = (s, options) => twoBoneJob.pack(options, s);

  /** Two-bone IK (docs/ik/two-bone.md); with `result` (a previous result), its arrays are filled in place and it is returned. */
  function solveTwoBone(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    checkOptionNames(options, twoBoneJob.names, 'solveTwoBone');
    core.fillScratch(pack, options);
    core.check((solveTwoBoneNative ??= core.area('ik').solveTwoBone)(pointer));
    return twoBoneJob.result.readInto(result, core.scratch, OUT);
  }

  return { solveTwoBone };
}
