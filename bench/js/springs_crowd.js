// A crowd of spring-bone avatars (docs/rig/springs.md, "A crowd"): 1,000
// avatars × 40 spring joints (5 hair chains of 8 swinging joints, each with a
// tail bone, hanging from the head; a sphere collider on the head; center the
// neck) in one ikpd.RigBatch, one batch.update(dt) per crowd frame, beside
// the same crowd stepped one ikpd.Rig at a time. Each frame every avatar's
// head turns and nods (its own phase) and its root moves: the per-avatar
// inputs of a crowd. Not shipped; bench/run.mjs and the tests only.

export const CHAINS = 5;
export const JOINTS = 8; // swinging joints per chain (each with a tail: the next bone)
export const AVATARS = 1000;
const SEGMENT = 0.05;
const F = 10; // floats per Rig local
const HEAD = 2, NECK = 1;
const PHASES = 64; // precomputed head rotations (the animation a crowd plays)

/** body 0 (1 m up) → neck 1 → head 2, then CHAINS chains of JOINTS + 1 bones fanned round the back of the head. */
export function springsCrowdSkeleton() {
  const parents = [-1, 0, 1];
  const rest = [[0, 1, 0], [0, 0.45, 0], [0, 0.1, 0]];
  const chains = [];
  for (let c = 0; c < CHAINS; c++) {
    const a = Math.PI * (0.25 + (0.5 * c) / (CHAINS - 1)) + Math.PI / 2; // round the back
    const out = [Math.cos(a), 0, Math.sin(a)];
    const dir = [0.3 * out[0], -0.95, 0.3 * out[2]];
    const len = Math.hypot(...dir);
    const chain = [];
    for (let k = 0; k <= JOINTS; k++) {
      parents.push(k === 0 ? HEAD : parents.length - 1);
      rest.push(k === 0 ? [0.1 * out[0], 0.1, 0.1 * out[2]] : dir.map((v) => (v / len) * SEGMENT));
      chain.push(parents.length - 1);
    }
    chains.push(chain);
  }
  const locals = new Float32Array(F * parents.length);
  rest.forEach((t, j) => locals.set([...t, 0, 0, 0, 1, 1, 1, 1], F * j));
  return { parents, rest: locals, chains };
}

/** The avatar as one ikpd.Rig (the template a RigBatch copies): springs over the chains, VRM parameters, a sphere on the head. */
export function createSpringsCrowdRig(api, options = {}) {
  const { parents, rest, chains } = springsCrowdSkeleton();
  const rig = new api.Rig({ parents, rest });
  rig.add('springs', {
    chains, center: NECK, stiffness: 1, dragForce: 0.4, gravityPower: 0.2, hitRadius: 0.01,
    colliders: [{ joint: HEAD, offset: [0, 0.1, 0], radius: 0.09 }], ...options,
  });
  return rig;
}

// PHASES head rotations [x, y, z, w]: a turn and a nod.
const HEAD_ROTATIONS = /* @__PURE__ */ (() => {
  const out = new Float32Array(4 * PHASES);
  for (let p = 0; p < PHASES; p++) {
    const t = (2 * Math.PI * p) / PHASES;
    const yaw = 0.7 * Math.sin(t), pitch = 0.3 * Math.sin(3 * t);
    const [sy, cy, sp, cp] = [Math.sin(yaw / 2), Math.cos(yaw / 2), Math.sin(pitch / 2), Math.cos(pitch / 2)];
    out.set([cy * sp, sy * cp, -sy * sp, cy * cp], 4 * p); // yaw about Y, then pitch about X
  }
  return out;
})();

/** Frame `f`'s per-avatar inputs of a RigBatch: each head's rotation and each root's place on a ring. */
export function fillSpringsCrowdFrame(batch, f) {
  const n = batch.count, rotations = batch.rotations, roots = batch.rootPositions;
  for (let c = 0; c < n; c++) {
    const p = (f + c) % PHASES;
    rotations.set(HEAD_ROTATIONS.subarray(4 * p, 4 * p + 4), 4 * (HEAD * n + c));
    roots[3 * c] = 2 * (c % 40) + 0.2 * Math.sin(0.1 * (f + c));
    roots[3 * c + 2] = 2 * Math.floor(c / 40);
  }
}

/** The same inputs into one Rig (avatar `c` of frame `f`). */
export function fillSpringsCrowdRig(rig, c, f) {
  const p = (f + c) % PHASES;
  rig.input.set(HEAD_ROTATIONS.subarray(4 * p, 4 * p + 4), F * HEAD + 3);
  rig.root[0] = 2 * (c % 40) + 0.2 * Math.sin(0.1 * (f + c));
  rig.root[2] = 2 * Math.floor(c / 40);
}

/**
 * ns per avatar per crowd frame (inputs written every frame): `batch` (one RigBatch.update over
 * `avatars`), `rig` (one Rig per avatar, updated one at a time); the joint count.
 */
export function benchSpringsCrowd(ikpd, measure, avatars = AVATARS) {
  const dt = 1 / 60;
  const template = createSpringsCrowdRig(ikpd);
  const batch = new ikpd.RigBatch({ rig: template, count: avatars });
  let f = 0;
  const out = { avatars, joints: CHAINS * JOINTS };
  out.batch = measure(() => {
    fillSpringsCrowdFrame(batch, f++);
    batch.update(dt);
  }, avatars);
  batch.dispose();
  template.dispose();
  const rigs = Array.from({ length: avatars }, () => createSpringsCrowdRig(ikpd));
  f = 0;
  out.rig = measure(() => {
    for (let c = 0; c < avatars; c++) {
      fillSpringsCrowdRig(rigs[c], c, f);
      rigs[c].update(dt);
    }
    f++;
  }, avatars);
  rigs.forEach((r) => r.dispose());
  return out;
}
