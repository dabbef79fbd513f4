// Pure-JS implementations of ikpd's two-bone (SPEC §3) and aim (SPEC §1/§2)
// solvers, written for the benchmark comparison only (not shipped). They
// follow cpp/src/ik/two_bone.cc and aim.cc step by step for the options the
// benchmark uses (pole point, soften, weight, reached; forward +X, bend axis
// +Z, bendDirection 'auto'; aim 'yawPitch' with a pole), in plain numbers
// with preallocated scratch (no allocation per solve), reading and writing
// the same structure-of-arrays Float32Arrays as the WASM batch.

const tmp = new Float64Array(64);

function normalize3(v, o) {
  // Scales by the largest component first, like SafeNormalize.
  const m = Math.max(Math.abs(v[o]), Math.abs(v[o + 1]), Math.abs(v[o + 2]));
  if (!(m > 1e-30) || !Number.isFinite(m)) return false;
  const x = v[o] / m, y = v[o + 1] / m, z = v[o + 2] / m;
  const n = Math.sqrt(x * x + y * y + z * z);
  v[o] = x / n; v[o + 1] = y / n; v[o + 2] = z / n;
  return true;
}

// v (at o) made perpendicular to unit n (at no) and normalized, in place.
function perpendicularUnit(v, o, n, no) {
  const d = v[o] * n[no] + v[o + 1] * n[no + 1] + v[o + 2] * n[no + 2];
  v[o] -= d * n[no]; v[o + 1] -= d * n[no + 1]; v[o + 2] -= d * n[no + 2];
  return normalize3(v, o);
}

function stablePerpendicular(n, no, out, o) {
  const ax = Math.abs(n[no]), ay = Math.abs(n[no + 1]), az = Math.abs(n[no + 2]);
  out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
  if (ax >= ay && ax >= az) out[o + 1] = 1; else if (ay >= az) out[o + 2] = 1; else out[o] = 1;
  perpendicularUnit(out, o, n, no);
}

// Rotates vector (x, y, z) by unit quaternion q (at qo), into out[o..o+2].
function rotate(q, qo, x, y, z, out, o) {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[o] = x + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = z + qw * tz + (qx * ty - qy * tx);
}

function normalizeQuat(q, o) {
  const n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
  q[o] /= n; q[o + 1] /= n; q[o + 2] /= n; q[o + 3] /= n;
}

function mulQuat(a, ao, b, bo, out, o) {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

// Rotation taking frame (f, u, f×u) to (F, U, F×U) (all unit): quaternion of R = to·fromᵀ.
function frameToFrame(f, fo, u, uo, F, Fo, U, Uo, out, o) {
  const f2x = f[fo + 1] * u[uo + 2] - f[fo + 2] * u[uo + 1];
  const f2y = f[fo + 2] * u[uo] - f[fo] * u[uo + 2];
  const f2z = f[fo] * u[uo + 1] - f[fo + 1] * u[uo];
  const t2x = F[Fo + 1] * U[Uo + 2] - F[Fo + 2] * U[Uo + 1];
  const t2y = F[Fo + 2] * U[Uo] - F[Fo] * U[Uo + 2];
  const t2z = F[Fo] * U[Uo + 1] - F[Fo + 1] * U[Uo];
  // R[r][c] = F_r f_c + U_r u_c + T_r t_c (T = F×U, t = f×u)
  const fx = f[fo], fy = f[fo + 1], fz = f[fo + 2], ux = u[uo], uy = u[uo + 1], uz = u[uo + 2];
  const Fx = F[Fo], Fy = F[Fo + 1], Fz = F[Fo + 2], Ux = U[Uo], Uy = U[Uo + 1], Uz = U[Uo + 2];
  const m00 = Fx * fx + Ux * ux + t2x * f2x, m01 = Fx * fy + Ux * uy + t2x * f2y, m02 = Fx * fz + Ux * uz + t2x * f2z;
  const m10 = Fy * fx + Uy * ux + t2y * f2x, m11 = Fy * fy + Uy * uy + t2y * f2y, m12 = Fy * fz + Uy * uz + t2y * f2z;
  const m20 = Fz * fx + Uz * ux + t2z * f2x, m21 = Fz * fy + Uz * uy + t2z * f2y, m22 = Fz * fz + Uz * uz + t2z * f2z;
  // glm::quat_cast: start from the largest of 4w²−1, 4x²−1, 4y²−1, 4z²−1.
  const fw = m00 + m11 + m22, fX = m00 - m11 - m22, fY = m11 - m00 - m22, fZ = m22 - m00 - m11;
  let big = fw, index = 0;
  if (fX > big) { big = fX; index = 1; }
  if (fY > big) { big = fY; index = 2; }
  if (fZ > big) { big = fZ; index = 3; }
  const bv = Math.sqrt(big + 1) * 0.5, mult = 0.25 / bv;
  let x, y, z, w;
  if (index === 0) { w = bv; x = (m21 - m12) * mult; y = (m02 - m20) * mult; z = (m10 - m01) * mult; }
  else if (index === 1) { w = (m21 - m12) * mult; x = bv; y = (m10 + m01) * mult; z = (m02 + m20) * mult; }
  else if (index === 2) { w = (m02 - m20) * mult; x = (m01 + m10) * mult; y = bv; z = (m21 + m12) * mult; }
  else { w = (m10 - m01) * mult; x = (m02 + m20) * mult; y = (m21 + m12) * mult; z = bv; }
  out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = w;
  normalizeQuat(out, o);
}

// glm::slerp(a, b, t) then normalize, into out.
function slerp(a, ao, b, bo, t, out, o) {
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let c = a[ao] * bx + a[ao + 1] * by + a[ao + 2] * bz + a[ao + 3] * bw;
  if (c < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; c = -c; }
  let ka, kb;
  if (c > 1 - 1.1920929e-7) { ka = 1 - t; kb = t; } else {
    const angle = Math.acos(c), s = Math.sin(angle);
    ka = Math.sin((1 - t) * angle) / s; kb = Math.sin(t * angle) / s;
  }
  out[o] = ka * a[ao] + kb * bx; out[o + 1] = ka * a[ao + 1] + kb * by;
  out[o + 2] = ka * a[ao + 2] + kb * bz; out[o + 3] = ka * a[ao + 3] + kb * bw;
  normalizeQuat(out, o);
}

// Scratch slots in `tmp` (offsets).
const Q1 = 0, Q2 = 4, R1 = 8, R2 = 12, W1 = 16, W2 = 20, DIR = 24, HINGE = 27, N = 30, TP = 33, UP = 36, LO = 39,
  RF = 42, RR = 45, F = 48, H = 51, V = 54;

/**
 * Solves item i of the two-bone problem set `p` (fields as TwoBoneBatch.input) into `o`
 * (fields as TwoBoneBatch.output), with `soften` and a pole point.
 */
export function solveTwoBoneJS(p, o, i, soften, tolerance = 1e-4) {
  const t = tmp;
  const i3 = 3 * i, i4 = 4 * i;
  for (let k = 0; k < 4; k++) { t[Q1 + k] = p.rootRotation[i4 + k]; t[Q2 + k] = p.midRotation[i4 + k]; }
  normalizeQuat(t, Q1);
  normalizeQuat(t, Q2);
  t[F] = 1; t[F + 1] = 0; t[F + 2] = 0; // forward
  t[H] = 0; t[H + 1] = 0; t[H + 2] = 1; // bend axis (already ⟂ forward)
  const px = p.rootPosition[i3], py = p.rootPosition[i3 + 1], pz = p.rootPosition[i3 + 2];
  const mx = p.midPosition[i3], my = p.midPosition[i3 + 1], mz = p.midPosition[i3 + 2];
  const ex = p.endPosition[i3], ey = p.endPosition[i3 + 1], ez = p.endPosition[i3 + 2];
  const v12x = mx - px, v12y = my - py, v12z = mz - pz;
  const v23x = ex - mx, v23y = ey - my, v23z = ez - mz;
  const gx = p.target[i3] - px, gy = p.target[i3 + 1] - py, gz = p.target[i3 + 2] - pz;
  const a = Math.sqrt(v12x * v12x + v12y * v12y + v12z * v12z);
  const b = Math.sqrt(v23x * v23x + v23y * v23y + v23z * v23z);
  const c = Math.sqrt(gx * gx + gy * gy + gz * gz);
  const limb = a + b;
  const weight = p.weight[i];
  let midX = mx, midY = my, midZ = mz, endX = ex, endY = ey, endZ = ez;
  let w1 = Q1, w2 = Q2;
  if (weight > 0) {
    t[DIR] = gx; t[DIR + 1] = gy; t[DIR + 2] = gz;
    if (!normalize3(t, DIR)) {
      t[DIR] = v12x + v23x; t[DIR + 1] = v12y + v23y; t[DIR + 2] = v12z + v23z;
      if (!normalize3(t, DIR)) rotate(t, Q1, 1, 0, 0, t, DIR);
    }
    rotate(t, Q2, t[H], t[H + 1], t[H + 2], t, HINGE);
    const cx = v12y * v23z - v12z * v23y, cy = v12z * v23x - v12x * v23z, cz = v12x * v23y - v12y * v23x;
    const side = t[HINGE] * cx + t[HINGE + 1] * cy + t[HINGE + 2] * cz;
    let sign = 1;
    if (Math.abs(side) > 1e-5 * a * b) sign = side > 0 ? 1 : -1;
    t[TP] = p.pole[i3] - px; t[TP + 1] = p.pole[i3 + 1] - py; t[TP + 2] = p.pole[i3 + 2] - pz;
    if (perpendicularUnit(t, TP, t, DIR)) {
      t[N] = sign * (t[TP + 1] * t[DIR + 2] - t[TP + 2] * t[DIR + 1]);
      t[N + 1] = sign * (t[TP + 2] * t[DIR] - t[TP] * t[DIR + 2]);
      t[N + 2] = sign * (t[TP] * t[DIR + 1] - t[TP + 1] * t[DIR]);
    } else {
      t[N] = t[HINGE]; t[N + 1] = t[HINGE + 1]; t[N + 2] = t[HINGE + 2];
      if (!perpendicularUnit(t, N, t, DIR)) {
        rotate(t, Q1, t[H], t[H + 1], t[H + 2], t, N);
        if (!perpendicularUnit(t, N, t, DIR)) stablePerpendicular(t, DIR, t, N);
      }
    }
    // Reach: clamp to [|a − b|, a + b], soften.
    const cMin = Math.abs(a - b), cMax = limb;
    let cEff = Math.min(c, cMax);
    if (soften > 0) {
      const zone = soften * cMax, start = cMax - zone;
      if (c > start) cEff = start + zone * (1 - Math.exp(-(c - start) / zone));
    }
    cEff = Math.max(cEff, cMin);
    let cosB = 1, sinB = 0, cosC = -1, sinC = 0;
    if (a > 1e-6 * limb && b > 1e-6 * limb) {
      cosB = Math.min(1, Math.max(-1, (cEff * cEff + a * a - b * b) / Math.max(2 * cEff * a, 1e-300)));
      cosC = Math.min(1, Math.max(-1, (a * a + b * b - cEff * cEff) / (2 * a * b)));
      sinB = Math.sqrt(Math.max(0, 1 - cosB * cosB));
      sinC = Math.sqrt(Math.max(0, 1 - cosC * cosC));
    }
    const nx = t[N], ny = t[N + 1], nz = t[N + 2], dx = t[DIR], dy = t[DIR + 1], dz = t[DIR + 2];
    const perpX = ny * dz - nz * dy, perpY = nz * dx - nx * dz, perpZ = nx * dy - ny * dx;
    t[UP] = cosB * dx - sign * sinB * perpX; t[UP + 1] = cosB * dy - sign * sinB * perpY; t[UP + 2] = cosB * dz - sign * sinB * perpZ;
    normalize3(t, UP);
    const ux = t[UP], uy = t[UP + 1], uz = t[UP + 2];
    t[LO] = -cosC * ux + sign * sinC * (ny * uz - nz * uy);
    t[LO + 1] = -cosC * uy + sign * sinC * (nz * ux - nx * uz);
    t[LO + 2] = -cosC * uz + sign * sinC * (nx * uy - ny * ux);
    normalize3(t, LO);
    rotate(t, Q1, 1, 0, 0, t, RF);
    t[RR] = t[HINGE]; t[RR + 1] = t[HINGE + 1]; t[RR + 2] = t[HINGE + 2];
    if (!perpendicularUnit(t, RR, t, RF)) {
      rotate(t, Q1, t[H], t[H + 1], t[H + 2], t, RR);
      if (!perpendicularUnit(t, RR, t, RF)) stablePerpendicular(t, RF, t, RR);
    }
    frameToFrame(t, RF, t, RR, t, UP, t, N, t, V);
    mulQuat(t, V, t, Q1, t, R1);
    normalizeQuat(t, R1);
    frameToFrame(t, F, t, H, t, LO, t, N, t, R2);
    if (weight >= 1) { w1 = R1; w2 = R2; } else {
      slerp(t, Q1, t, R1, weight, t, W1);
      slerp(t, Q2, t, R2, weight, t, W2);
      w1 = W1; w2 = W2;
    }
    rotate(t, w1, 1, 0, 0, t, V);
    midX = px + a * t[V]; midY = py + a * t[V + 1]; midZ = pz + a * t[V + 2];
    rotate(t, w2, 1, 0, 0, t, V);
    endX = midX + b * t[V]; endY = midY + b * t[V + 1]; endZ = midZ + b * t[V + 2];
  }
  for (let k = 0; k < 4; k++) {
    o.rootRotation[i4 + k] = t[w1 + k];
    o.midRotation[i4 + k] = t[w2 + k];
    o.endRotation[i4 + k] = p.endRotation[i4 + k];
  }
  o.midPosition[i3] = midX; o.midPosition[i3 + 1] = midY; o.midPosition[i3 + 2] = midZ;
  o.endPosition[i3] = endX; o.endPosition[i3 + 1] = endY; o.endPosition[i3 + 2] = endZ;
  const rx = endX - p.target[i3], ry = endY - p.target[i3 + 1], rz = endZ - p.target[i3 + 2];
  const distance = Math.sqrt(rx * rx + ry * ry + rz * rz);
  o.distance[i] = distance;
  o.reached[i] = distance <= tolerance * limb ? 1 : 0;
}

function axisAngle(ax, ay, az, angle, out, o) {
  const h = 0.5 * angle, s = Math.sin(h);
  out[o] = ax * s; out[o + 1] = ay * s; out[o + 2] = az * s; out[o + 3] = Math.cos(h);
}

/** Solves item i of the aim problem set `p` (AimBatch.input fields, pole point, forward +X, up +Y) into out.rotation. */
export function solveAimJS(p, out, i) {
  const t = tmp;
  const i3 = 3 * i, i4 = 4 * i;
  for (let k = 0; k < 4; k++) t[Q1 + k] = p.rotation[i4 + k];
  normalizeQuat(t, Q1);
  const qx = t[Q1], qy = t[Q1 + 1], qz = t[Q1 + 2], qw = t[Q1 + 3];
  const px = p.position[i3], py = p.position[i3 + 1], pz = p.position[i3 + 2];
  // local = conj(q) · (target − position)
  t[Q2] = -qx; t[Q2 + 1] = -qy; t[Q2 + 2] = -qz; t[Q2 + 3] = qw;
  rotate(t, Q2, p.target[i3] - px, p.target[i3 + 1] - py, p.target[i3 + 2] - pz, t, DIR);
  let aimed = Q1;
  if (normalize3(t, DIR)) {
    // yaw/pitch with f = X, pitch axis Y, yaw axis Z
    const x = t[DIR], y = t[DIR + 1], z = t[DIR + 2];
    const rho = Math.sqrt(x * x + y * y);
    const yaw = rho > 1e-7 ? Math.atan2(y, x) : 0;
    const pitch = Math.atan2(z, rho);
    axisAngle(0, 0, 1, yaw, t, R1);
    axisAngle(0, 1, 0, -pitch, t, R2);
    mulQuat(t, R1, t, R2, t, V);
    mulQuat(t, Q1, t, V, t, W1);
    aimed = W1;
  }
  // roll about forward so up (+Y) points toward the pole
  const a = aimed;
  t[Q2] = -t[a]; t[Q2 + 1] = -t[a + 1]; t[Q2 + 2] = -t[a + 2]; t[Q2 + 3] = t[a + 3];
  rotate(t, Q2, p.pole[i3] - px, p.pole[i3 + 1] - py, p.pole[i3 + 2] - pz, t, TP);
  t[TP] = 0; // perpendicular to forward (+X)
  if (normalize3(t, TP)) {
    const angle = Math.atan2(t[TP + 2], t[TP + 1]); // signed angle from +Y to p about +X
    axisAngle(1, 0, 0, angle, t, R2);
    mulQuat(t, a, t, R2, t, W2);
    normalizeQuat(t, W2);
    for (let k = 0; k < 4; k++) out.rotation[i4 + k] = t[W2 + k];
  } else {
    normalizeQuat(t, a);
    for (let k = 0; k < 4; k++) out.rotation[i4 + k] = t[a + k];
  }
}
