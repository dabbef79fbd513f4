// Aim with up-vector roll (docs/ik/aim.md; typings web/types/ik/aim.d.ts). Inputs are packed
// as float32 into core.scratch in the job layout C++ describes (web/src/fields.js).
import { readOptions } from '../readers.js';
import { checkOptionNames } from '../options.js';
import { OUT } from '../fields.js';

export function createAimApi(core) {
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let solveAimNative = null;
  const pointer = core.scratchPointer;
  const { aim: aimJob } = core.jobs;
  // Made once: a closure over each call's options would be garbage on every call.
  const pack = (s, options) => aimJob.pack(options, s);

  /** Aim with up-vector roll (docs/ik/aim.md); with `result` (a previous result), it is filled in place and returned. */
  function solveAim(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    checkOptionNames(options, aimJob.names, 'solveAim');
    core.fillScratch(pack, options);
    core.check((solveAimNative ??= core.area('ik').solveAim)(pointer));
    return aimJob.result.readInto(result, core.scratch, OUT);
  }

  return { solveAim };
}
