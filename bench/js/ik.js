// Pure-JS implementations of ikpd's two-bone (docs/ik/two-bone.md) and aim (docs/ik/aim.md)
// solvers, written for the benchmark comparison only (not shipped).
//
// solveTwoBoneJS follows the C++ kernel (cpp/src/ik/two_bone_kernel.h,
// SolveTwoBone) step by step for the options the benchmark uses: pole point,
// soften, per-item weight, reached/distance; forward +X, bend axis +Z,
// bendDirection 'auto', no angle limits, no stretch or twist, endRotation
// 'world'. It differs from the kernel only where JS makes it natural:
// - numbers are doubles, so the kernel's power-of-two rescaling of huge or
//   tiny coordinates (which keeps float32 from overflowing) is left out, and
//   its thresholds are applied to the unscaled values;
// - Math.exp / Math.atan2 / Math.sin / Math.cos replace the kernel's
//   polynomial approximations (cpp/src/simd/lanes.h);
// - the per-lane selects become ordinary branches.
// solveAimJS follows cpp/src/ik/aim.cc for method 'yawPitch' with a pole
// point (forward +X, up +Y).
//
// Both read and write the same structure-of-arrays Float32Arrays as the WASM
// batches, with plain numbers and preallocated scratch: nothing is allocated
// per solve.

const vec3 = () => new Float64Array(3);
const quat = () => new Float64Array(4);

// ------------------------------------------------------------ vector helpers

/** out = unit quaternion of field[o..o+3]. */
function loadUnitQuat(field, o, out) {
  const x = field[o], y = field[o + 1], z = field[o + 2], w = field[o + 3];
  const s = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out[0] = x * s; out[1] = y * s; out[2] = z * s; out[3] = w * s;
}

/** out = q (x, y, z) q* for unit q. */
function rotate(q, x, y, z, out) {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + qw * tx + (qy * tz - qz * ty);
  out[1] = y + qw * ty + (qz * tx - qx * tz);
  out[2] = z + qw * tz + (qx * ty - qy * tx);
}

/** out = a b (out may alias a or b). */
function mulQuat(a, b, out) {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out = q* (the inverse of unit q). */
function conjugate(q, out) {
  out[0] = -q[0]; out[1] = -q[1]; out[2] = -q[2]; out[3] = q[3];
}

function normalizeQuat(q) {
  const s = 1 / Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  q[0] *= s; q[1] *= s; q[2] *= s; q[3] *= s;
}

/**
 * Unit component of (x, y, z) perpendicular to unit n, into out; false (out
 * untouched) when the vector is zero or within ~0.0006° of ±n.
 */
function perpendicularUnit(x, y, z, n, out) {
  const vv = x * x + y * y + z * z;
  let d = x * n[0] + y * n[1] + z * n[2];
  let px = x - d * n[0], py = y - d * n[1], pz = z - d * n[2];
  d = px * n[0] + py * n[1] + pz * n[2]; // twice: v near ±n leaves rounding along n after one pass
  px -= d * n[0]; py -= d * n[1]; pz -= d * n[2];
  const pp = px * px + py * py + pz * pz;
  if (!(vv > 1e-20 && pp > 1e-10 * vv)) return false;
  const s = 1 / Math.sqrt(pp);
  out[0] = px * s; out[1] = py * s; out[2] = pz * s;
  return true;
}

/** A stable unit vector perpendicular to unit n: the axis after n's dominant one. */
function stablePerpendicular(n, out) {
  const ax = Math.abs(n[0]), ay = Math.abs(n[1]), az = Math.abs(n[2]);
  if (ax >= ay && ax >= az) perpendicularUnit(0, 1, 0, n, out);
  else if (ay >= az) perpendicularUnit(0, 0, 1, n, out);
  else perpendicularUnit(1, 0, 0, n, out);
}

/** The first usable of: v1 ⟂ n, v2 ⟂ n, a stable perpendicular of n. */
function perpendicularOf(v1, v2, n, out) {
  if (perpendicularUnit(v1[0], v1[1], v1[2], n, out)) return;
  if (perpendicularUnit(v2[0], v2[1], v2[2], n, out)) return;
  stablePerpendicular(n, out);
}

/** The rotation whose matrix has columns (f, u, f × u), f and u unit and perpendicular (Shepperd's method). */
function frameQuat(f, u, out) {
  const m00 = f[0], m10 = f[1], m20 = f[2];
  const m01 = u[0], m11 = u[1], m21 = u[2];
  const m02 = f[1] * u[2] - f[2] * u[1], m12 = f[2] * u[0] - f[0] * u[2], m22 = f[0] * u[1] - f[1] * u[0];
  const tw = 1 + m00 + m11 + m22, tx = 1 + m00 - m11 - m22;
  const ty = 1 - m00 + m11 - m22, tz = 1 - m00 - m11 + m22;
  let t;
  if (tw >= tx && tw >= ty && tw >= tz) {
    t = tw; out[0] = m21 - m12; out[1] = m02 - m20; out[2] = m10 - m01; out[3] = tw;
  } else if (tx >= ty && tx >= tz) {
    t = tx; out[0] = tx; out[1] = m01 + m10; out[2] = m02 + m20; out[3] = m21 - m12;
  } else if (ty >= tz) {
    t = ty; out[0] = m01 + m10; out[1] = ty; out[2] = m12 + m21; out[3] = m02 - m20;
  } else {
    t = tz; out[0] = m02 + m20; out[1] = m12 + m21; out[2] = tz; out[3] = m10 - m01;
  }
  const k = 0.5 / Math.sqrt(t);
  out[0] *= k; out[1] *= k; out[2] *= k; out[3] *= k;
}

/** Slerp from unit q to unit r by t in [0, 1] along the shortest arc: q cos(tθ) + ê sin(tθ). */
function slerp(q, r, t, out) {
  const d0 = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
  const sign = d0 < 0 ? -1 : 1;
  const d = d0 * sign;
  const ex = r[0] * sign - q[0] * d, ey = r[1] * sign - q[1] * d;
  const ez = r[2] * sign - q[2] * d, ew = r[3] * sign - q[3] * d;
  const s = Math.sqrt(ex * ex + ey * ey + ez * ez + ew * ew);
  const angle = Math.atan2(s, d) * t;
  const cosT = Math.cos(angle);
  const k = s > 1e-20 ? Math.sin(angle) / s : t;
  out[0] = q[0] * cosT + ex * k; out[1] = q[1] * cosT + ey * k;
  out[2] = q[2] * cosT + ez * k; out[3] = q[3] * cosT + ew * k;
  normalizeQuat(out);
}

// ------------------------------------------------------------ two-bone

const FORWARD = Float64Array.of(1, 0, 0);
const BEND_AXIS = Float64Array.of(0, 0, 1); // already ⟂ FORWARD
// Inverse of frameQuat(forward, bendAxis), once (MakeTwoBoneShared's localFrameInverse).
const LOCAL_FRAME_INVERSE = quat();
frameQuat(FORWARD, BEND_AXIS, LOCAL_FRAME_INVERSE);
conjugate(LOCAL_FRAME_INVERSE, LOCAL_FRAME_INVERSE);

// Scratch of solveTwoBoneJS.
const q1 = quat(), q2 = quat(), q3 = quat(), r1 = quat(), r2 = quat(), w1 = quat(), w2 = quat(), fq = quat();
const dirT = vec3(), rootForward = vec3(), hinge = vec3(), rootHinge = vec3(), n = vec3();
const towardPole = vec3(), upper = vec3(), lower = vec3(), rootRef = vec3(), axis = vec3();

/**
 * Solves item i of the two-bone problem set `p` (fields as TwoBoneBatch.input)
 * into `o` (fields as TwoBoneBatch.output), with `soften` and a pole point.
 */
export function solveTwoBoneJS(p, o, i, soften, tolerance = 1e-4) {
  const i3 = 3 * i, i4 = 4 * i;
  loadUnitQuat(p.rootRotation, i4, q1);
  loadUnitQuat(p.midRotation, i4, q2);
  loadUnitQuat(p.endRotation, i4, q3);
  const weight = p.weight[i];

  const p1x = p.rootPosition[i3], p1y = p.rootPosition[i3 + 1], p1z = p.rootPosition[i3 + 2];
  const p2x = p.midPosition[i3], p2y = p.midPosition[i3 + 1], p2z = p.midPosition[i3 + 2];
  const p3x = p.endPosition[i3], p3y = p.endPosition[i3 + 1], p3z = p.endPosition[i3 + 2];
  const gx = p.target[i3], gy = p.target[i3 + 1], gz = p.target[i3 + 2];
  const v12x = p2x - p1x, v12y = p2y - p1y, v12z = p2z - p1z;
  const v23x = p3x - p2x, v23y = p3y - p2y, v23z = p3z - p2z;
  const tgx = gx - p1x, tgy = gy - p1y, tgz = gz - p1z;
  const a = Math.sqrt(v12x * v12x + v12y * v12y + v12z * v12z);
  const b = Math.sqrt(v23x * v23x + v23y * v23y + v23z * v23z);
  const c = Math.sqrt(tgx * tgx + tgy * tgy + tgz * tgz);
  const limb = a + b;

  let midX = p2x, midY = p2y, midZ = p2z, endX = p3x, endY = p3y, endZ = p3z;
  let outRoot = q1, outMid = q2;
  if (weight > 0) { // weight 0 returns the input unchanged
    // Direction root → goal; target at the root: the limb's direction, else the root's forward.
    rotate(q1, FORWARD[0], FORWARD[1], FORWARD[2], rootForward);
    if (c > 1e-12) {
      dirT[0] = tgx / c; dirT[1] = tgy / c; dirT[2] = tgz / c;
    } else {
      const lx = v12x + v23x, ly = v12y + v23y, lz = v12z + v23z, l2 = lx * lx + ly * ly + lz * lz;
      if (l2 > 1e-24) {
        const s = 1 / Math.sqrt(l2);
        dirT[0] = lx * s; dirT[1] = ly * s; dirT[2] = lz * s;
      } else {
        dirT.set(rootForward);
      }
    }

    // Side the mid bends to, as the sign of its turn about its world hinge.
    rotate(q2, BEND_AXIS[0], BEND_AXIS[1], BEND_AXIS[2], hinge);
    const side = hinge[0] * (v12y * v23z - v12z * v23y) + hinge[1] * (v12z * v23x - v12x * v23z) +
      hinge[2] * (v12x * v23y - v12y * v23x);
    const sign = Math.abs(side) > 1e-5 * a * b ? (side > 0 ? 1 : -1) : 1; // straightBend 'positive'

    // Limb plane normal n = the mid's world hinge after the solve; with a usable pole, (pole ⟂ dirT) × dirT.
    rotate(q1, BEND_AXIS[0], BEND_AXIS[1], BEND_AXIS[2], rootHinge);
    if (perpendicularUnit(p.pole[i3] - p1x, p.pole[i3 + 1] - p1y, p.pole[i3 + 2] - p1z, dirT, towardPole)) {
      n[0] = sign * (towardPole[1] * dirT[2] - towardPole[2] * dirT[1]);
      n[1] = sign * (towardPole[2] * dirT[0] - towardPole[0] * dirT[2]);
      n[2] = sign * (towardPole[0] * dirT[1] - towardPole[1] * dirT[0]);
    } else {
      perpendicularOf(hinge, rootHinge, dirT, n);
    }

    // Reach: clamp c to [|a − b|, a + b], soften.
    let cEff = Math.min(c, limb);
    if (soften > 0) {
      const zone = soften * limb, start = limb - zone;
      if (c > start && zone > 0) cEff = start + zone * (1 - Math.exp(-(c - start) / zone));
    }
    cEff = Math.max(cEff, Math.abs(a - b));

    // Root angle B from the triangle (a, b, cEff): (cos B, sin B) ∝ (a² + c² − b², 4·area),
    // Heron's product keeping sin B exact near straight.
    const bones = a > 1e-6 * limb && b > 1e-6 * limb;
    let cosB = bones ? 0 : 1, sinB = bones ? 1 : 0;
    const cosTerm = (a - b) * (a + b) + cEff * cEff;
    const sinTerm = Math.sqrt((limb + cEff) * Math.max(b + cEff - a, 0) * Math.max(a - b + cEff, 0) *
      Math.max(limb - cEff, 0));
    const len2 = cosTerm * cosTerm + sinTerm * sinTerm;
    if (bones && len2 > 1e-30) {
      const s = 1 / Math.sqrt(len2);
      cosB = cosTerm * s; sinB = sinTerm * s;
    }
    // Root turns by −sign·B about n from root→target; the lower bone closes the triangle.
    const nx = n[0], ny = n[1], nz = n[2], dx = dirT[0], dy = dirT[1], dz = dirT[2];
    const ss = sign * sinB;
    upper[0] = dx * cosB - (ny * dz - nz * dy) * ss;
    upper[1] = dy * cosB - (nz * dx - nx * dz) * ss;
    upper[2] = dz * cosB - (nx * dy - ny * dx) * ss;
    const cx = dx * cEff - upper[0] * a, cy = dy * cEff - upper[1] * a, cz = dz * cEff - upper[2] * a;
    const closing2 = cx * cx + cy * cy + cz * cz;
    if (bones && closing2 > 1e-24) {
      const s = 1 / Math.sqrt(closing2);
      lower[0] = cx * s; lower[1] = cy * s; lower[2] = cz * s;
    } else {
      lower.set(upper);
    }

    // Rotations: the root swings with the limb plane (keeping its roll relative
    // to it); the mid is rebuilt from its forward and hinge axes.
    perpendicularOf(hinge, rootHinge, rootForward, rootRef);
    frameQuat(rootForward, rootRef, fq);
    conjugate(fq, fq);
    frameQuat(upper, n, r1);
    mulQuat(r1, fq, r1);
    mulQuat(r1, q1, r1);
    normalizeQuat(r1);
    frameQuat(lower, n, r2);
    mulQuat(r2, LOCAL_FRAME_INVERSE, r2);
    normalizeQuat(r2);

    outRoot = r1; outMid = r2;
    if (weight < 1) {
      slerp(q1, r1, weight, w1);
      slerp(q2, r2, weight, w2);
      outRoot = w1; outMid = w2;
    }
    rotate(outRoot, FORWARD[0], FORWARD[1], FORWARD[2], axis);
    midX = p1x + axis[0] * a; midY = p1y + axis[1] * a; midZ = p1z + axis[2] * a;
    rotate(outMid, FORWARD[0], FORWARD[1], FORWARD[2], axis);
    endX = midX + axis[0] * b; endY = midY + axis[1] * b; endZ = midZ + axis[2] * b;
  }

  for (let k = 0; k < 4; k++) {
    o.rootRotation[i4 + k] = outRoot[k];
    o.midRotation[i4 + k] = outMid[k];
    o.endRotation[i4 + k] = q3[k]; // endRotation 'world'
  }
  o.midPosition[i3] = midX; o.midPosition[i3 + 1] = midY; o.midPosition[i3 + 2] = midZ;
  o.endPosition[i3] = endX; o.endPosition[i3 + 1] = endY; o.endPosition[i3 + 2] = endZ;
  const mx = endX - gx, my = endY - gy, mz = endZ - gz;
  const distance = Math.sqrt(mx * mx + my * my + mz * mz);
  o.distance[i] = distance;
  o.reached[i] = distance <= tolerance * limb ? 1 : 0;
}

// ------------------------------------------------------------ aim

// Scratch of solveAimJS.
const aq = quat(), aimed = quat(), inverse = quat(), turn = quat(), local = vec3();

/** out = rotation by `angle` about the unit axis (x, y, z). */
function axisAngle(x, y, z, angle, out) {
  const h = 0.5 * angle, s = Math.sin(h);
  out[0] = x * s; out[1] = y * s; out[2] = z * s; out[3] = Math.cos(h);
}

/** Solves item i of the aim problem set `p` (AimBatch.input fields, pole point, forward +X, up +Y) into out.rotation. */
export function solveAimJS(p, out, i) {
  const i3 = 3 * i, i4 = 4 * i;
  loadUnitQuat(p.rotation, i4, aq);
  const px = p.position[i3], py = p.position[i3 + 1], pz = p.position[i3 + 2];
  // local = conj(q) (target − position)
  conjugate(aq, inverse);
  rotate(inverse, p.target[i3] - px, p.target[i3 + 1] - py, p.target[i3 + 2] - pz, local);
  aimed.set(aq);
  const x = local[0], y = local[1], z = local[2], d = Math.sqrt(x * x + y * y + z * z);
  if (d > 1e-30) {
    // yawPitch with forward X, pitch axis Y, yaw axis Z: yaw about Z, then −pitch about Y.
    const rho = Math.sqrt(x * x + y * y);
    const yaw = rho > 1e-7 * d ? Math.atan2(y, x) : 0;
    const pitch = Math.atan2(z, rho);
    axisAngle(0, 0, 1, yaw, turn);
    mulQuat(aimed, turn, aimed);
    axisAngle(0, 1, 0, -pitch, turn);
    mulQuat(aimed, turn, aimed);
  }
  // Roll about forward (+X) so up (+Y) points toward the pole.
  conjugate(aimed, inverse);
  rotate(inverse, p.pole[i3] - px, p.pole[i3 + 1] - py, p.pole[i3 + 2] - pz, local);
  const ly = local[1], lz = local[2], l2 = local[0] * local[0] + ly * ly + lz * lz;
  if (l2 > 1e-60 && ly * ly + lz * lz > 1e-10 * l2) {
    axisAngle(1, 0, 0, Math.atan2(lz, ly), turn); // signed angle from +Y to the pole about +X
    mulQuat(aimed, turn, aimed);
  }
  normalizeQuat(aimed);
  for (let k = 0; k < 4; k++) out.rotation[i4 + k] = aimed[k];
}
