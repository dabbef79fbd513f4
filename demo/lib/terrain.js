// The crowd scene's ground (demo/scenes/crowd.js): a sum of sines, so its
// height and slope are exact anywhere, with no raycast. No three.js import:
// the browser test reads the same function in Node.

// Four waves of [amplitude (m), kx, kz (rad/m), phase], flat (indexed loops
// over it make no garbage in the per-frame path): slopes up to about 17°.
const WAVES = /* @__PURE__ */ Float64Array.of(
  0.35, 0.21, 0.13, 0.4,
  0.22, -0.17, 0.31, 1.9,
  0.12, 0.55, 0.42, 0.7,
  0.05, 1.1, -0.8, 2.3,
);

/** Height of the ground at (x, z). */
export function terrainHeight(x, z) {
  let h = 0;
  for (let i = 0; i < WAVES.length; i += 4) h += WAVES[i] * Math.sin(WAVES[i + 1] * x + WAVES[i + 2] * z + WAVES[i + 3]);
  return h;
}

/** Unit normal of the ground at (x, z), written to `out[offset..offset + 2]`. */
export function terrainNormal(x, z, out, offset = 0) {
  let gx = 0, gz = 0;
  for (let i = 0; i < WAVES.length; i += 4) {
    const c = WAVES[i] * Math.cos(WAVES[i + 1] * x + WAVES[i + 2] * z + WAVES[i + 3]);
    gx += c * WAVES[i + 1];
    gz += c * WAVES[i + 2];
  }
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  out[offset] = -gx * inv;
  out[offset + 1] = inv;
  out[offset + 2] = -gz * inv;
  return out;
}

/**
 * The per-frame form: `p[o + 1]` = the height under (p[o], p[o + 2]) and
 * `n[0..2]` = the normal there. It takes indices, not coordinates, so a call
 * V8 does not inline boxes no numbers (no garbage per frame).
 */
export function groundUnder(p, o, n) {
  const x = p[o], z = p[o + 2];
  p[o + 1] = terrainHeight(x, z);
  terrainNormal(x, z, n, 0);
}
