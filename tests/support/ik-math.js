// Small vector/quaternion helpers for the IK tests (double precision, [x, y, z, w] order).
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const length = (a) => Math.sqrt(dot(a, a));
export const normalize = (a) => scale(a, 1 / length(a));
export const distance = (a, b) => length(sub(a, b));
export const angleBetween = (a, b) => Math.atan2(length(cross(a, b)), dot(a, b));

export function quatMul(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
export const conj = (q) => [-q[0], -q[1], -q[2], q[3]];
export function quatNormalize(q) {
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}
export function axisAngle(axis, angle) {
  const n = normalize(axis);
  const s = Math.sin(angle / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(angle / 2)];
}
export function rotate(q, v) {
  const r = quatMul(quatMul(q, [v[0], v[1], v[2], 0]), conj(q));
  return [r[0], r[1], r[2]];
}
/** |dot| of two unit quaternions: 1 when they are the same rotation. */
export const sameRotation = (a, b) => Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);

/** A consistent limb: forward axes point at the child; the mid turns by `bend` about `h`. */
export function makeLimb({ rootPos, rootRot, a, b, bend, f, h, endRot = [0, 0, 0, 1] }) {
  const midRot = quatMul(rootRot, axisAngle(h, bend));
  const midPos = add(rootPos, scale(rotate(rootRot, f), a));
  const endPos = add(midPos, scale(rotate(midRot, f), b));
  return {
    root: { position: rootPos, rotation: rootRot },
    mid: { position: midPos, rotation: midRot },
    end: { position: endPos, rotation: endRot },
  };
}

/** Interior angle at the mid joint of a result. */
export function interiorAngle(r) {
  return angleBetween(sub(r.root.position, r.mid.position), sub(r.end.position, r.mid.position));
}

export const allFinite = (values) => values.flat(3).every((v) => Number.isFinite(v));
