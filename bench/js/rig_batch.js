// The crowd frame through RigBatch (docs/rig/rig-batch.md): 10,000 crowd
// characters (demo/lib/crowdRig.js: 4 two-bone limbs + a 5-joint look-at of
// smoothed aims), one batch.update(dt) per frame with forward kinematics and
// locals in and out, beside the same character through one Rig per
// character. Inputs are set once (solver time only). Not shipped; bench/run.mjs only.
import { CROWD_CONSTRAINTS, createCrowdRig } from '../../demo/lib/crowdRig.js';

/**
 * Every character in place on a ring, feet reaching a little forward, arms
 * swinging back, the look target ahead and to the side (phase `t` moves them).
 */
export function fillCrowdFrame(batch, t = 0) {
  const n = batch.count;
  for (let c = 0; c < n; c++) {
    const a = (2 * Math.PI * c) / n, r = 4 + (c % 50) * 0.9;
    const x = r * Math.sin(a), z = r * Math.cos(a);
    batch.rootPositions.set([x, 0, z], 3 * c);
    batch.rootRotations.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 4 * c);
    const all = batch.constraints, { legs, arms, look: spine } = CROWD_CONSTRAINTS;
    const [legL, legR, armL, armR] = [...legs, ...arms].map((i) => all[i]), look = spine.map((i) => all[i]);
    legL.targets.set([x + 0.1, 0.05 + 0.02 * Math.sin(c + t), z + 0.15], 3 * c);
    legR.targets.set([x - 0.1, 0.05, z - 0.1], 3 * c);
    armL.targets.set([x + 0.2, 0.6, z - 0.2], 3 * c);
    armR.targets.set([x - 0.2, 0.65, z + 0.1], 3 * c);
    for (const k of [legL, legR]) k.poles.set([x, 0.5, z + 2], 3 * c);
    for (const k of [armL, armR]) k.poles.set([x, 1, z - 2], 3 * c);
    for (const k of look) k.targets.set([x + 3 * Math.cos(c + t), 1.6, z + 4], 3 * c);
  }
  for (const i of [...CROWD_CONSTRAINTS.legs, ...CROWD_CONSTRAINTS.arms]) batch.poleSet[i] = 1;
}

/** ns per character per frame: `batch` (RigBatch.update over `characters`), `rig` (Rig.update, one per character). */
export function benchRigBatch(ikpd, measure, characters) {
  const rig = createCrowdRig(ikpd);
  const batch = new ikpd.RigBatch({ rig, count: characters });
  fillCrowdFrame(batch);
  const out = { characters };
  out.batch = measure(() => batch.update(1 / 60), characters);
  // The same character through a Rig: inputs copied from batch character 0 once.
  rig.constraints.forEach((k, i) => {
    rig.frames.set(batch.constraints[i].targets.subarray(0, 3), k.frameOffset);
    rig.frames.set(batch.constraints[i].poles.subarray(0, 3), k.frameOffset + 3);
    rig.frames[k.frameOffset + 9] = batch.poleSet[i];
  });
  out.rig = measure(() => rig.update(1 / 60), 1);
  batch.dispose();
  rig.dispose();
  return out;
}
