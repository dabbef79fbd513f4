// Pure-JS PD updates written for the benchmark comparison only (not shipped):
// the same exact damped-spring step as cpp/src/pd/spring.cc (ExactStepCoeffs,
// computed once per frame for the whole set), and for quaternions the same
// log-map chart as cpp/src/pd/controllers.cc (QuatPD, method 'log'), in plain
// numbers over the same Float32Array structure-of-arrays as the WASM batches.

/** Closed-form step coefficients [ee, ev, ve, vv] for gains kp, kd over t. */
export function exactStepCoeffs(kp, kd, t) {
  const a = 0.5 * kd, disc = a * a - kp;
  let h, hp;
  if (disc < 0) {
    const w = Math.sqrt(-disc), e = Math.exp(-a * t), s = Math.sin(w * t) / w;
    h = e * s; hp = e * (Math.cos(w * t) - a * s);
  } else if (disc === 0) {
    const e = Math.exp(-a * t);
    h = e * t; hp = e - a * t * e;
  } else {
    const r = Math.sqrt(disc), s2 = -a - r, s1 = kp / s2;
    h = Math.exp(s1 * t) * (-Math.expm1(-2 * r * t) / (2 * r));
    hp = Math.exp(s2 * t) + s1 * h;
    return [Math.exp(s2 * t) - s2 * h, h, -kp * h, hp];
  }
  return [hp + kd * h, h, -kp * h, hp];
}

/** Scalar PD, exact integrator, held targets: n controllers by dt. */
export function updateScalarPdJS(value, velocity, target, n, kp, kd, dt) {
  const [ee, ev, ve, vv] = exactStepCoeffs(kp, kd, dt);
  for (let i = 0; i < n; i++) {
    const g = target[i], u = value[i] - g, w = velocity[i];
    value[i] = g + ee * u + ev * w;
    velocity[i] = ve * u + vv * w;
  }
}

/** Quaternion PD ('log' method, exact integrator, held targets): n controllers by dt. */
export function updateQuatPdJS(value, velocity, target, n, kp, kd, dt) {
  const [ee, ev, ve, vv] = exactStepCoeffs(kp, kd, dt);
  for (let i = 0; i < n; i++) {
    const i4 = 4 * i, i3 = 3 * i;
    let qx = value[i4], qy = value[i4 + 1], qz = value[i4 + 2], qw = value[i4 + 3];
    let l = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    qx /= l; qy /= l; qz /= l; qw /= l;
    let gx = target[i4], gy = target[i4 + 1], gz = target[i4 + 2], gw = target[i4 + 3];
    l = Math.sqrt(gx * gx + gy * gy + gz * gz + gw * gw);
    gx /= l; gy /= l; gz /= l; gw /= l;
    if (gx * qx + gy * qy + gz * qz + gw * qw < 0) { gx = -gx; gy = -gy; gz = -gz; gw = -gw; }
    // u = log(q · g⁻¹) (rotation vector)
    let dx = qw * -gx + qx * gw + qy * -gz - qz * -gy;
    let dy = qw * -gy - qx * -gz + qy * gw + qz * -gx;
    let dz = qw * -gz + qx * -gy - qy * -gx + qz * gw;
    let dw = qw * gw - qx * -gx - qy * -gy - qz * -gz;
    if (dw < 0) { dx = -dx; dy = -dy; dz = -dz; dw = -dw; }
    const s = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const f = s < 1e-300 ? 0 : (2 * Math.atan2(s, dw)) / s;
    let ux = dx * f, uy = dy * f, uz = dz * f;
    // w = J⁻¹(u)·ω
    const ox = velocity[i3], oy = velocity[i3 + 1], oz = velocity[i3 + 2];
    let t2 = ux * ux + uy * uy + uz * uz, t = Math.sqrt(t2);
    const C = t < 1e-2 ? 1 / 12 + t2 / 720 + (t2 * t2) / 30240 : 1 / t2 - Math.cos(0.5 * t) / (2 * t * Math.sin(0.5 * t));
    let c1x = uy * oz - uz * oy, c1y = uz * ox - ux * oz, c1z = ux * oy - uy * ox;
    let wx = ox - 0.5 * c1x + C * (uy * c1z - uz * c1y);
    let wy = oy - 0.5 * c1y + C * (uz * c1x - ux * c1z);
    let wz = oz - 0.5 * c1z + C * (ux * c1y - uy * c1x);
    // exact step on the chart (target at the origin)
    const nux = ee * ux + ev * wx, nuy = ee * uy + ev * wy, nuz = ee * uz + ev * wz;
    wx = ve * ux + vv * wx; wy = ve * uy + vv * wy; wz = ve * uz + vv * wz;
    ux = nux; uy = nuy; uz = nuz;
    // q = exp(u)·g, ω = J(u)·w
    t2 = ux * ux + uy * uy + uz * uz; t = Math.sqrt(t2);
    const k = t < 1e-8 ? 0.5 - t2 / 48 : Math.sin(0.5 * t) / t;
    const ew = Math.cos(0.5 * t), ex = ux * k, ey = uy * k, ez = uz * k;
    qw = ew * gw - ex * gx - ey * gy - ez * gz;
    qx = ew * gx + ex * gw + ey * gz - ez * gy;
    qy = ew * gy - ex * gz + ey * gw + ez * gx;
    qz = ew * gz + ex * gy - ey * gx + ez * gw;
    l = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    value[i4] = qx / l; value[i4 + 1] = qy / l; value[i4 + 2] = qz / l; value[i4 + 3] = qw / l;
    let A, B;
    if (t < 1e-2) { A = 0.5 - t2 / 24 + (t2 * t2) / 720; B = 1 / 6 - t2 / 120 + (t2 * t2) / 5040; } else { A = (1 - Math.cos(t)) / t2; B = (t - Math.sin(t)) / (t2 * t); }
    c1x = uy * wz - uz * wy; c1y = uz * wx - ux * wz; c1z = ux * wy - uy * wx;
    velocity[i3] = wx + A * c1x + B * (uy * c1z - uz * c1y);
    velocity[i3 + 1] = wy + A * c1y + B * (uz * c1x - ux * c1z);
    velocity[i3 + 2] = wz + A * c1z + B * (ux * c1y - uy * c1x);
  }
}
