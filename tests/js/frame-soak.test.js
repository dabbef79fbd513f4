// Frame-loop soak: a small rig driven through the public API with adversarial
// input for many frames. A "frame" is one update of the whole rig, which is 7
// solver invocations: two two-bone limbs, one look-at (3 joints, quaternion PD
// per joint), one chain (4 joints, CCD or FABRIK, up to 1000 iterations: FABRIK converges slowly for a target near the chain's line behind the root), one 2D tentacle and two PD
// controllers (an exact one and a 'stable' one with onUnstable: 'clamp').
// The default run is FRAMES rig frames = FRAMES × 7 solver invocations
// (IKPD_SOAK_FRAMES overrides it). Inputs: targets that jump, sweep through the
// root, or sit exactly on a bone line; dt in {0, 1/240, 1/15, 0.5}; poles on the
// limb line; objects disposed and recreated. Asserted: every output finite, no
// error at all (every input is valid), reachable targets reached, and the WASM
// heap in use the same at the end as after the first cycle.
import { describe, expect, it } from 'vitest';
import { init } from '../../web/index.js';

const ikpd = await init({ rig: true });

const FRAMES = Number(globalThis.process?.env?.IKPD_SOAK_FRAMES ?? 150_000);
const SOLVERS_PER_FRAME = 7;
const CYCLE = 2_000; // frames between disposing and recreating the stateful objects
const DTS = [0, 1 / 240, 1 / 15, 0.5];

// Deterministic xorshift32 in [0, 1).
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const finite = (values) => values.every(Number.isFinite);
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const lerp3 = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

// Limb: root at the origin, bones of 0.5 and 0.4 along a slightly bent line.
const LIMB = {
  root: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
  mid: { position: [0, -0.5, 0.02], rotation: [0, 0, 0, 1] },
  end: { position: [0, -0.9, 0], rotation: [0, 0, 0, 1] },
};
const L1 = dist(LIMB.root.position, LIMB.mid.position);
const L2 = dist(LIMB.mid.position, LIMB.end.position);
const CHAIN = [[0, 0, 0], [0, 0.3, 0], [0, 0.6, 0], [0, 0.9, 0]].map((position) => ({ position, rotation: [0, 0, 0, 1] }));
const SPINE = [[0, 1, 0], [0, 1.3, 0], [0, 1.6, 0]].map((position) => ({ position, rotation: [0, 0, 0, 1] }));

/** The adversarial target for a limb at frame f: jumps, sweeps through the root, sits on a bone line. */
function limbTarget(f, random) {
  switch ((f >> 6) % 4) {
    case 0: return [random() * 4 - 2, random() * 4 - 2, random() * 4 - 2]; // jumps every frame
    case 1: return lerp3([-1, -1, 0.3], [1, 1, -0.3], ((f % 64) / 63)); // sweeps through the root
    case 2: return lerp3(LIMB.root.position, LIMB.mid.position, [0, 0.5, 1, 1.5, 3][f % 5]); // on the bone line
    default: { // reachable: inside the annulus (|L1 − L2|, L1 + L2) with a margin
      const r = (Math.abs(L1 - L2) + 0.02) + random() * (L1 + L2 - Math.abs(L1 - L2) - 0.04);
      const u = random() * 2 - 1, phi = random() * 2 * Math.PI, s = Math.sqrt(1 - u * u);
      return [r * s * Math.cos(phi), r * s * Math.sin(phi), r * u];
    }
  }
}

function createStateful() {
  return {
    lookAt: new ikpd.LookAt({ weights: [0.3, 0.5, 1], settleTime: [0.4, 0.3, 0.2] }),
    tentacle: new ikpd.Tentacle2D({ lengths: [0.3, 0.3, 0.3, 0.3], step: 0.05, limit: 1.5 }),
    exact: new ikpd.PD({ settleTime: 0.3 }),
    stable: new ikpd.PD({ kp: 2000, kd: 30, integrator: 'stable', onUnstable: 'clamp' }),
  };
}

function disposeAll(objects) {
  for (const o of Object.values(objects)) o.dispose();
}

describe('frame-loop soak', () => {
  it(`${FRAMES} rig frames (${FRAMES * SOLVERS_PER_FRAME} solver invocations): finite, no errors, reaches, flat heap`, () => {
    const random = rng(16);
    let objects = createStateful();
    let heapAfterFirstCycle = null;
    let reachable = 0;
    let lookAtHeld = 0;
    const twoBone = {};
    const chain = {};
    for (let f = 0; f < FRAMES; f++) {
      const dt = DTS[f % DTS.length];

      // Two limbs, the second with its pole on the limb line (root → end).
      for (let side = 0; side < 2; side++) {
        const target = limbTarget(f + 17 * side, random);
        const pole = side === 0 ? [0, -0.45, 1] : lerp3(LIMB.root.position, LIMB.end.position, [0.5, 2, -1][f % 3]);
        const r = ikpd.solveTwoBone({ ...LIMB, target, pole }, twoBone);
        if (!finite([...r.root.rotation, ...r.mid.rotation, ...r.end.rotation, ...r.end.position])) {
          throw new Error(`two-bone: non-finite result at frame ${f} for target ${target}`);
        }
        const d = Math.hypot(...target);
        if (d > Math.abs(L1 - L2) + 0.01 && d < L1 + L2 - 0.01) {
          reachable++;
          if (!(dist(r.end.position, target) < 1e-4)) {
            throw new Error(`two-bone: reachable target ${target} missed by ${dist(r.end.position, target)} (frame ${f})`);
          }
        }
      }

      // Look-at with PD: targets jump; every 4th block it holds still so the head must settle on it.
      const hold = (f >> 8) % 4 === 3;
      const lookTarget = hold ? [2, 1.5, 3] : limbTarget(f, random).map((v) => v * 3 + 1);
      const enabled = (f >> 9) % 5 !== 4;
      const pose = objects.lookAt.update(dt, { joints: SPINE, target: lookTarget, enabled });
      if (!pose.every((j) => finite(j.position) && finite(j.rotation))) throw new Error(`lookAt: non-finite at frame ${f}`);
      lookAtHeld = hold && enabled ? lookAtHeld + dt : 0;

      // Chain: FABRIK/CCD, target jumping, on the chain line, or reachable.
      const method = f % 2 ? 'fabrik' : 'ccd';
      const onLine = (f >> 5) % 3 === 0;
      const chainTarget = onLine ? [0, [0, 0.45, 0.9, 2][f % 4], 0] : limbTarget(f, random).map((v) => v * 0.8);
      const c = ikpd.solveChain({ joints: CHAIN, target: chainTarget, method, iterations: 1000, tolerance: 1e-4 }, chain);
      if (!c.joints.every((j) => finite(j.position) && finite(j.rotation)) || !Number.isFinite(c.distance)) {
        throw new Error(`chain: non-finite at frame ${f}`);
      }
      const reach = Math.hypot(...chainTarget);
      if (method === 'fabrik' && !onLine && reach > 0.05 && reach < 0.6 && !c.reached) {
        throw new Error(`chain: reachable target ${chainTarget} missed by ${c.distance} (frame ${f})`);
      }

      // Tentacle: jumping targets, the root itself, a point on its straight line.
      const tt = (f >> 4) % 3 === 0 ? [0, 0] : (f >> 4) % 3 === 1 ? [0.6, 0] : [random() * 3 - 1.5, random() * 3 - 1.5];
      objects.tentacle.update(tt);
      if (!finite(objects.tentacle.tip)) throw new Error(`tentacle: non-finite tip at frame ${f}`);

      // PD controllers: jumping targets at every dt, including 0.5 s for a stiff 'stable' spring.
      const pdTarget = random() * 20 - 10;
      if (!Number.isFinite(objects.exact.update(dt, pdTarget)) || !Number.isFinite(objects.stable.update(dt, pdTarget))) {
        throw new Error(`pd: non-finite at frame ${f}`);
      }

      if ((f + 1) % CYCLE === 0) {
        if (lookAtHeld > 2) {
          // Held for > 2 s: the head (last joint, forward +Z) looks at the target.
          const head = pose[pose.length - 1];
          const [x, y, z, w] = head.rotation;
          const forward = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
          const to = lookTarget.map((v, i) => v - head.position[i]);
          const cos = (forward[0] * to[0] + forward[1] * to[1] + forward[2] * to[2]) / Math.hypot(...to);
          expect(cos).toBeGreaterThan(Math.cos(0.01));
        }
        disposeAll(objects);
        objects = createStateful();
        const used = ikpd.memoryStats().usedBytes;
        if (heapAfterFirstCycle === null) heapAfterFirstCycle = used;
        else if (used !== heapAfterFirstCycle) throw new Error(`heap grew: ${heapAfterFirstCycle} → ${used} bytes at frame ${f}`);
      }
    }
    disposeAll(objects);
    expect(reachable).toBeGreaterThan(FRAMES / 5);
    expect(heapAfterFirstCycle).not.toBeNull();
  }, 180_000);
});
