// What a walk clip played in place says about its feet: how fast the stance
// feet move back (the speed to move the character forward at, so that they
// stand still in the world) and when each foot is in stance. Sampled once
// when a character is loaded, then looked up per frame without allocating.
// Used by the sample-character scene and the character scene's dropped
// models (docs/demo.md).
import { Vector3 } from 'three';

const SAMPLES = 96;
const _p = new Vector3();

/**
 * Samples `clip` on `mixer` (its root is `root`, standing at the world's
 * origin unturned, at its final scale) and returns the speed of the stance
 * feet (world units per second) and a stance table per foot. `feet` are the
 * bones that touch the ground (toes or paws), `forward` the character's
 * forward (unit, horizontal). A foot is in stance while it is within
 * `lift` (× the clip's foot range) of its lowest point; `speed` is the median
 * backward speed of the feet in stance (0 for a clip that does not walk).
 * @param {import('three').Object3D} root
 * @param {import('three').AnimationMixer} mixer
 * @param {import('three').AnimationClip} clip
 * @param {import('three').Object3D[]} feet
 * @param {{ forward?: Vector3, lift?: number }} [o]
 */
export function analyseClip(root, mixer, clip, feet, { forward = new Vector3(0, 0, 1), lift = 0.1 } = {}) {
  const action = mixer.clipAction(clip);
  const wasRunning = action.isRunning();
  action.reset().play();
  const n = SAMPLES, dt = clip.duration / n;
  const heights = feet.map(() => new Float64Array(n));
  const along = feet.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    mixer.setTime(i * dt);
    root.updateMatrixWorld(true);
    feet.forEach((foot, f) => {
      foot.getWorldPosition(_p);
      heights[f][i] = _p.y;
      along[f][i] = _p.dot(forward);
    });
  }
  const stance = feet.map((_, f) => {
    const h = heights[f];
    let min = Infinity, max = -Infinity;
    for (const v of h) { min = Math.min(min, v); max = Math.max(max, v); }
    const limit = min + lift * (max - min);
    return Uint8Array.from(h, (v) => (v <= limit ? 1 : 0));
  });
  // Backward speed of each stance sample (central differences, wrapping).
  const speeds = [];
  feet.forEach((_, f) => {
    const a = along[f];
    for (let i = 0; i < n; i++) {
      if (!stance[f][i]) continue;
      let d = a[(i + 1) % n] - a[(i + n - 1) % n];
      speeds.push(-d / (2 * dt));
    }
  });
  speeds.sort((x, y) => x - y);
  const median = speeds.length ? speeds[speeds.length >> 1] : 0;
  // The measured part of each stance: from a quarter of it on (docs/rig/grounding.md, "What is tested").
  const settled = stance.map((s) => settledStance(s));
  mixer.setTime(0);
  if (!wasRunning) action.stop();
  return { speed: median > 0 ? median : 0, duration: clip.duration, samples: n, stance, settled };
}

// The stance samples from a quarter of each stance on (a stance wraps around the clip's end).
function settledStance(stance) {
  const n = stance.length, out = new Uint8Array(n);
  const start = stance.findIndex((s, i) => s && !stance[(i + n - 1) % n]);
  if (start < 0) return stance.slice(); // always (or never) in stance
  for (let k = 0, i = start; k < n; k++, i = (start + k) % n) {
    if (!stance[i] || stance[(i + n - 1) % n]) continue;
    let length = 0;
    while (length < n && stance[(i + length) % n]) length++;
    for (let j = Math.ceil(length / 4); j < length; j++) out[(i + j) % n] = 1;
  }
  return out;
}

/** Whether foot `f` is in stance at clip time `t` (`settled`: from a quarter of the stance on). */
export function inStance(gait, f, t, settled = false) {
  const table = settled ? gait.settled[f] : gait.stance[f];
  const u = ((t % gait.duration) + gait.duration) % gait.duration;
  return table[Math.min(gait.samples - 1, Math.floor((u / gait.duration) * gait.samples))] === 1;
}
