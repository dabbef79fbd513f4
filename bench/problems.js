// Benchmark problem sets, generated exactly like bench/problems.h (same
// mulberry32 sequence, double arithmetic stored as float32) so native, WASM
// and pure-JS runs solve the same items.

export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1) >>> 0;
    t = ((t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t) >>> 0;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, uniform: (lo, hi) => lo + (hi - lo) * next() };
}

function unitVector(r) {
  let x = r.uniform(-1, 1), y = r.uniform(-1, 1), z = r.uniform(-1, 1);
  let n = Math.sqrt(x * x + y * y + z * z);
  if (n < 1e-6) { x = 1; y = 0; z = 0; n = 1; }
  return [x / n, y / n, z / n];
}

function unitQuat(r, out) {
  const q = [r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1)];
  let n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < 1e-6) { q[0] = q[1] = q[2] = 0; q[3] = 1; n = 1; }
  for (const c of q) out.push(c / n);
}

const f32 = (fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Float32Array.from(v)]));

export function makeTwoBoneProblems(n, seed = 1) {
  const r = rng(seed);
  const p = { rootPosition: [], rootRotation: [], midPosition: [], midRotation: [], endPosition: [], endRotation: [], target: [], pole: [], weight: [] };
  for (let i = 0; i < n; i++) {
    const root = [r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1)];
    const d1 = unitVector(r);
    const a = r.uniform(0.5, 1.5);
    const d2 = unitVector(r);
    const b = r.uniform(0.5, 1.5);
    const dt = unitVector(r);
    const reach = r.uniform(0, 1.1 * (a + b));
    for (let k = 0; k < 3; k++) {
      const mid = root[k] + a * d1[k];
      p.rootPosition.push(root[k]);
      p.midPosition.push(mid);
      p.endPosition.push(mid + b * d2[k]);
      p.target.push(root[k] + reach * dt[k]);
    }
    unitQuat(r, p.rootRotation);
    unitQuat(r, p.midRotation);
    unitQuat(r, p.endRotation);
    for (let k = 0; k < 3; k++) p.pole.push(root[k] + r.uniform(-2, 2));
    p.weight.push(r.next() < 0.5 ? 1 : 0.75);
  }
  return f32(p);
}

export function makeAimProblems(n, seed = 2) {
  const r = rng(seed);
  const p = { position: [], rotation: [], target: [], pole: [], weight: [] };
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) p.position.push(r.uniform(-1, 1));
    unitQuat(r, p.rotation);
    for (let k = 0; k < 3; k++) p.target.push(r.uniform(-3, 3));
    for (let k = 0; k < 3; k++) p.pole.push(r.uniform(-3, 3));
    p.weight.push(1);
  }
  return f32(p);
}

/** Chain targets: points at 20–95 % of the chain length from the root, in random directions. */
export function makeChainTargets(n, chainLength, seed = 3) {
  const r = rng(seed);
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const d = unitVector(r);
    const reach = r.uniform(0.2, 0.95) * chainLength;
    for (let k = 0; k < 3; k++) out[3 * i + k] = reach * d[k];
  }
  return out;
}

/** PD controllers: scalar states/targets and quaternion states/angular velocities/targets. */
export function makePdProblems(n, seed = 4) {
  const r = rng(seed);
  const p = { value: [], velocity: [], target: [], qValue: [], qVelocity: [], qTarget: [] };
  for (let i = 0; i < n; i++) {
    p.value.push(r.uniform(-1, 1));
    p.velocity.push(r.uniform(-1, 1));
    p.target.push(r.uniform(-1, 1));
    unitQuat(r, p.qValue);
    for (let k = 0; k < 3; k++) p.qVelocity.push(r.uniform(-1, 1));
    unitQuat(r, p.qTarget);
  }
  return f32(p);
}
