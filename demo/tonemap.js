// The demo's output tone map: linear scene color → linear extended-range
// color where 1.0 is SDR (paper) white. TEMPORARY local TSL version of
// SPEC §7 until ikpd/three exports the HDR nodes; then this file only
// re-exports them.
import { Fn, float, mat3, mix, vec3 } from 'three/tsl';

const filmicSDR = Fn(([x]) => {
  const a = float(3.0), b = float(0.03), c = float(2.43), d = float(0.59), e = float(0.14);
  return x.mul(x.mul(a).add(b)).div(x.mul(x.mul(c).add(d)).add(e)).min(1.0);
});

// Rec.2020 → Rec.709 (inverse of the §7 matrix): shows what "saturation"
// (displaying Rec.709 values as if they were Rec.2020) looks like on an
// extended-sRGB canvas.
const rec2020To709 = mat3(
  1.660491, -0.124550, -0.018151,
  -0.587641, 1.132900, -0.100579,
  -0.072850, -0.008349, 1.118730,
);

/** SDR filmic curve, then the seed's production HDR curve toward `peak` (units of SDR white), then saturation. */
export const outputToneMap = Fn(([color, peak, saturation]) => {
  const sdr = filmicSDR(color.max(0.0));
  const rate = sdr.pow(vec3(10.0)).clamp(0.0, 1.0);
  const hdr = mix(sdr, sdr.mul(peak), rate);
  return mix(hdr, rec2020To709.mul(hdr), saturation);
});

