// Pseudo three-bone IK (docs/ik/pseudo-three-bone.md; typings web/types/ik/pseudoThreeBone.d.ts).
import { readOptions } from '../readers.js';
import { checkOptionNames } from '../options.js';
import { OUT } from '../fields.js';

export function createPseudoThreeBoneApi(core) {
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let solvePseudoThreeBoneNative = null;
  const { pseudoThreeBone } = core.jobs;
  // Made once: a closure over each call's options would be garbage on every call.
  const pack = (s, options) => pseudoThreeBone.pack(options, s);

  /**
   * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md); see PseudoThreeBoneOptions in web/types/ik/pseudoThreeBone.d.ts.
   * With `result` (a previous result), its arrays are filled in place and it is returned.
   */
  function solvePseudoThreeBone(options, result) {
    readOptions(options);
    for (const name of ['effectorOffset', 'endRotation']) {
      if (options[name] !== undefined) throw new TypeError(`${name}: not an option of solvePseudoThreeBone (the tip sets it)`);
    }
    checkOptionNames(options, pseudoThreeBone.names, 'solvePseudoThreeBone');
    if (result !== undefined) readOptions(result, 'result');
    core.fillScratch(pack, options);
    core.check((solvePseudoThreeBoneNative ??= core.area('ik').solvePseudoThreeBone)(core.scratchPointer));
    const r = core.scratch;
    return pseudoThreeBone.result.readInto(result, r, OUT);
  }

  return { solvePseudoThreeBone };
}
