// The crowd frame composed from three batches, as bench/run.mjs and
// bench/js/threads.js time it: N characters × (4 two-bone limbs + a 5-joint
// look-at: each joint aimed at the look target with a pole, its rotation
// smoothed by a quaternion PD). One frame = TwoBoneBatch(4N).solve() +
// AimBatch(5N).solve() + QuatPDBatch(5N).update(dt). Inputs are filled once
// (solver time only); legs run at weight 1. Not shipped; bench only.
import { makeAimProblems, makeTwoBoneProblems } from '../problems.js';

/** The three batches of `characters` crowd characters on `api`: `{ frame(), dispose() }`. */
export function makeComposedCrowd(api, characters) {
  const limbs = 4 * characters, joints = 5 * characters;
  const tb = makeTwoBoneProblems(limbs, 5);
  tb.weight.fill(1); // full IK on every leg (the per-solve row mixes in weight 0.75)
  const aim = makeAimProblems(joints, 6);
  const legs = new api.TwoBoneBatch(limbs, { poleMode: 'point', soften: 0.05 });
  const look = new api.AimBatch(joints, { poleMode: 'point' });
  const smooth = new api.QuatPDBatch(joints, { settleTime: 0.3 });
  for (const k of Object.keys(tb)) legs.input[k].set(tb[k]);
  for (const k of Object.keys(aim)) look.input[k].set(aim[k]);
  smooth.state.value.set(aim.rotation);
  return {
    frame() {
      legs.solve();
      look.solve();
      smooth.input.target.set(look.output.rotation);
      smooth.update(1 / 60);
    },
    dispose() {
      legs.dispose();
      look.dispose();
      smooth.dispose();
    },
  };
}
