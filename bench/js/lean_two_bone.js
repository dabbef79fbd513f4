// The yardstick for the single-call two-bone paths: a lean hand-written
// pure-JS two-bone solve of the kind a three.js user writes (law of cosines,
// bend plane from a pole point, shortest-arc rotations), with no options, no
// validation and no allocation. Not shipped; bench/run.mjs only.
//
// Reads item i of the benchmark problems (bench/problems.js) and writes the
// new root and mid rotations [x, y, z, w] and the mid and end positions to `out`.

// q ← shortest-arc rotation taking unit u onto unit v, times q0 (all [x, y, z, w]).
function arcTimes(ux, uy, uz, vx, vy, vz, q0, o0, out, o) {
  let x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
  let w = 1 + ux * vx + uy * vy + uz * vz;
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  x /= n; y /= n; z /= n; w /= n;
  const bx = q0[o0], by = q0[o0 + 1], bz = q0[o0 + 2], bw = q0[o0 + 3];
  out[o] = w * bx + x * bw + y * bz - z * by;
  out[o + 1] = w * by - x * bz + y * bw + z * bx;
  out[o + 2] = w * bz + x * by - y * bx + z * bw;
  out[o + 3] = w * bw - x * bx - y * by - z * bz;
}

const MID = new Float64Array(4);

export function solveTwoBoneLean(p, out, i) {
  const i3 = 3 * i, i4 = 4 * i;
  const rx = p.rootPosition[i3], ry = p.rootPosition[i3 + 1], rz = p.rootPosition[i3 + 2];
  const mx = p.midPosition[i3], my = p.midPosition[i3 + 1], mz = p.midPosition[i3 + 2];
  const ex = p.endPosition[i3], ey = p.endPosition[i3 + 1], ez = p.endPosition[i3 + 2];
  // Bone lengths and the clamped reach.
  const ax = mx - rx, ay = my - ry, az = mz - rz, a = Math.sqrt(ax * ax + ay * ay + az * az);
  const bx = ex - mx, by = ey - my, bz = ez - mz, b = Math.sqrt(bx * bx + by * by + bz * bz);
  let tx = p.target[i3] - rx, ty = p.target[i3 + 1] - ry, tz = p.target[i3 + 2] - rz;
  const t = Math.sqrt(tx * tx + ty * ty + tz * tz);
  tx /= t; ty /= t; tz /= t;
  const c = Math.min(Math.max(t, Math.abs(a - b)), a + b);
  // Law of cosines: the angle at the root.
  const cosA = Math.min(1, Math.max(-1, (a * a + c * c - b * b) / (2 * a * c)));
  const sinA = Math.sqrt(1 - cosA * cosA);
  // Bend direction: the pole point, made perpendicular to root→target.
  let px = p.pole[i3] - rx, py = p.pole[i3 + 1] - ry, pz = p.pole[i3 + 2] - rz;
  const d = px * tx + py * ty + pz * tz;
  px -= d * tx; py -= d * ty; pz -= d * tz;
  const pn = Math.sqrt(px * px + py * py + pz * pz);
  px /= pn; py /= pn; pz /= pn;
  // New mid and end positions.
  const nmx = rx + a * (cosA * tx + sinA * px), nmy = ry + a * (cosA * ty + sinA * py), nmz = rz + a * (cosA * tz + sinA * pz);
  const nex = rx + c * tx, ney = ry + c * ty, nez = rz + c * tz;
  // Root: shortest arc from the old upper bone to the new one.
  arcTimes(ax / a, ay / a, az / a, (nmx - rx) / a, (nmy - ry) / a, (nmz - rz) / a, p.rootRotation, i4, out.rootRotation, i4);
  // Mid: the root's arc carries the lower bone; then the arc onto the new lower bone.
  const q = out.rootRotation, r0 = p.rootRotation;
  // Delta = new root · old root⁻¹ applied to the old lower bone.
  const qx = q[i4], qy = q[i4 + 1], qz = q[i4 + 2], qw = q[i4 + 3];
  const cx = -r0[i4], cy = -r0[i4 + 1], cz = -r0[i4 + 2], cw = r0[i4 + 3];
  const dw = qw * cw - qx * cx - qy * cy - qz * cz;
  const dx = qw * cx + qx * cw + qy * cz - qz * cy;
  const dy = qw * cy - qx * cz + qy * cw + qz * cx;
  const dz = qw * cz + qx * cy - qy * cx + qz * cw;
  const ux = 2 * (dy * bz - dz * by), uy = 2 * (dz * bx - dx * bz), uz = 2 * (dx * by - dy * bx);
  const lx = bx + dw * ux + (dy * uz - dz * uy), ly = by + dw * uy + (dz * ux - dx * uz), lz = bz + dw * uz + (dx * uy - dy * ux);
  const nb = Math.sqrt((nex - nmx) ** 2 + (ney - nmy) ** 2 + (nez - nmz) ** 2);
  const mid = MID;
  const m0 = p.midRotation;
  // (delta · old mid) first, then the arc.
  mid[0] = dw * m0[i4] + dx * m0[i4 + 3] + dy * m0[i4 + 2] - dz * m0[i4 + 1];
  mid[1] = dw * m0[i4 + 1] - dx * m0[i4 + 2] + dy * m0[i4 + 3] + dz * m0[i4];
  mid[2] = dw * m0[i4 + 2] + dx * m0[i4 + 1] - dy * m0[i4] + dz * m0[i4 + 3];
  mid[3] = dw * m0[i4 + 3] - dx * m0[i4] - dy * m0[i4 + 1] - dz * m0[i4 + 2];
  arcTimes(lx / b, ly / b, lz / b, (nex - nmx) / nb, (ney - nmy) / nb, (nez - nmz) / nb, mid, 0, out.midRotation, i4);
  out.midPosition[i3] = nmx; out.midPosition[i3 + 1] = nmy; out.midPosition[i3 + 2] = nmz;
  out.endPosition[i3] = nex; out.endPosition[i3 + 1] = ney; out.endPosition[i3 + 2] = nez;
}
