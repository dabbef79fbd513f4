// A trot for the quadruped scene, as plain functions of numbers (no three.js),
// so it can be checked without a browser.
//
// Feet come in two diagonal pairs that take turns. A foot is planted until its
// pair swings; a swing lasts `stride / footSpeed` (at most `maxSwing`) and lands
// half a swing's travel ahead of where the foot's rest point will be, so a
// planted foot drifts from +travel/2 to -travel/2 around its rest point while
// the other pair swings. Guarantees, for any speed and any dt: a foot never
// gets farther than `stride` from its rest point (horizontally), because
//   - the pair whose turn it is swings as soon as one of its feet is a quarter
//     stride from rest, and
//   - any foot more than `CATCH_UP * stride` from rest swings at once, whether
//     or not the other pair is swinging (no pair can starve the other);
// and update() splits dt into sub-steps of at most `maxStep` seconds.

/** Fraction of the stride at which a foot swings regardless of whose turn it is. */
export const CATCH_UP = 0.7;
/** Fraction of the stride at which the pair whose turn it is starts to swing. */
const START = 0.25;

/**
 * A gait for feet at `rests` ([x, z] rest points), `pairs[i]` (0 or 1) the
 * diagonal pair of foot i. Feet start planted on their rest points.
 */
export function createGait(rests, pairs) {
  return {
    pairs: pairs.slice(),
    turn: 0, // the pair that swings next
    feet: rests.map(([x, z]) => ({
      planted: [x, z], // where the foot is while planted, and where a swing starts
      position: [x, z], // where the foot is now
      to: [x, z],
      swing: -1, // progress 0..1 while swinging, -1 while planted
      swings: 0,
      lastRest: [x, z],
    })),
    swings: 0,
    maxOffset: 0, // largest foot-to-rest distance seen (for tests and the panel)
  };
}

const hypot = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/**
 * Advances the gait by `dt` seconds. `rests(t)` gives the feet's rest points
 * [x, z] at the fraction t in [0, 1] of this update (the caller interpolates
 * its body motion); `stride` is the step length, `maxSwing` the longest swing
 * in seconds, `maxStep` the longest sub-step. Returns the gait.
 */
export function updateGait(gait, rests, dt, { stride, maxSwing = 0.3, maxStep = 1 / 120 }) {
  const steps = Math.max(1, Math.ceil(dt / maxStep));
  const h = dt / steps;
  for (let i = 1; i <= steps; i++) subStep(gait, rests(i / steps), h, stride, maxSwing);
  return gait;
}

function subStep(gait, rest, h, stride, maxSwing) {
  const { feet, pairs } = gait;
  // Rest-point velocities over this sub-step (turning moves each foot's differently).
  let footSpeed = 0;
  const velocity = feet.map((foot, i) => {
    const v = h > 0 ? [(rest[i][0] - foot.lastRest[0]) / h, (rest[i][1] - foot.lastRest[1]) / h] : [0, 0];
    foot.lastRest = rest[i].slice();
    footSpeed = Math.max(footSpeed, Math.hypot(v[0], v[1]));
    return v;
  });
  const duration = footSpeed > 0 ? Math.min(maxSwing, stride / footSpeed) : maxSwing;

  // Who starts a swing: the pair whose turn it is, once a foot is off rest and no foot swings;
  // any foot that is far off rest, always.
  const swinging = feet.some((f) => f.swing >= 0);
  const offset = feet.map((f, i) => hypot(f.planted, rest[i]));
  const pairNeeds = (p) => feet.some((f, i) => pairs[i] === p && f.swing < 0 && offset[i] > START * stride);
  let startPair = -1;
  if (!swinging) {
    if (pairNeeds(gait.turn)) startPair = gait.turn;
    else if (pairNeeds(1 - gait.turn)) startPair = 1 - gait.turn;
  }
  feet.forEach((f, i) => {
    if (f.swing < 0 && (pairs[i] === startPair || offset[i] > CATCH_UP * stride)) {
      f.swing = 0;
      f.swings++;
      gait.swings++;
      if (pairs[i] === startPair || !swinging) gait.turn = 1 - pairs[i];
    }
  });

  feet.forEach((f, i) => {
    if (f.swing >= 0) {
      f.swing = Math.min(1, f.swing + h / duration);
      // Land half a swing's travel ahead of where the rest point will be.
      const ahead = (1 - f.swing) * duration + duration / 2;
      f.to = [rest[i][0] + velocity[i][0] * ahead, rest[i][1] + velocity[i][1] * ahead];
      const s = f.swing;
      f.position = [f.planted[0] + (f.to[0] - f.planted[0]) * s, f.planted[1] + (f.to[1] - f.planted[1]) * s];
      if (s >= 1) {
        f.planted = f.to.slice();
        f.swing = -1;
      }
    } else {
      f.position = f.planted.slice();
    }
    gait.maxOffset = Math.max(gait.maxOffset, hypot(f.position, rest[i]));
  });
}

/** How high a foot is lifted (0..1 of the step height) at swing progress `swing` (-1: planted). */
export function liftAt(swing) {
  return swing < 0 ? 0 : Math.sin(Math.PI * swing);
}
