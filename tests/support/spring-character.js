// A character to hang spring chains from, for the springs tests and bench
// (docs/rig/springs.md): body (1 m up) → neck → head, and named chains of
// bones hanging from any bone.
import { Bone, Group, Vector3 } from 'three';

export function headCharacter() {
  const scene = new Group();
  const bone = (name, parent, x, y, z) => {
    const b = new Bone();
    b.name = name;
    b.position.set(x, y, z);
    parent.add(b);
    return b;
  };
  // `name`0 at `at` (in the parent's frame), then n bones of `length` along `dir`: n + 1 bones.
  const chain = (name, parent, at, dir, n, length) => {
    const step = new Vector3(...dir).normalize().multiplyScalar(length);
    const out = [bone(`${name}0`, parent, ...at)];
    for (let k = 1; k <= n; k++) out.push(bone(`${name}${k}`, out[k - 1], step.x, step.y, step.z));
    return out;
  };
  const body = bone('body', scene, 0, 1, 0), neck = bone('neck', body, 0, 0.45, 0), head = bone('head', neck, 0, 0.1, 0);
  return { scene, body, neck, head, chain };
}

/** Root mean square of the distances between two recordings (frames of Vector3s, joint for joint). */
export function rms(a, b) {
  let sum = 0, n = 0;
  a.forEach((frame, f) => frame.forEach((p, j) => { sum += p.distanceToSquared(b[f][j]); n++; }));
  return Math.sqrt(sum / n);
}

/** The largest distance between two recordings, joint for joint. */
export const largest = (a, b) => Math.max(...a.flatMap((frame, f) => frame.map((p, j) => p.distanceTo(b[f][j]))));
