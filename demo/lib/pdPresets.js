// The PD playground's presets (demo/scenes/pd.js; docs/pd/pd.md): each a set
// of lanes, one controller each, with the settle time, update rate and target
// motion that show one behaviour, and the target motions they use.

const SWEEP_SPEED = 1; // 'sweep' motion: a triangle wave at this speed (units/s)

/**
 * The presets. Each lane is one controller: `kind` 'pd' (an ikpd.PD with `options`
 * on top of the shared settle time), 'naive' (explicit Euler written in this scene,
 * with the gains of ikpd's critically damped spring), 'raw' or 'offset' (the
 * IK-offset preset: a PD on the raw angle, or ikpd's trackOffset on the offset).
 */
export const PRESETS = {
  'spring alone (no damping)': {
    settleTime: 1, rate: 60, motion: 'steps',
    note: 'kd = 0: the spring alone oscillates around the target for ever; critical damping (ζ = 1) settles without overshoot.',
    lanes: [
      { kind: 'pd', label: 'spring only (ζ = 0)', options: { damping: 0 } },
      { kind: 'pd', label: 'critical (ζ = 1)', options: { damping: 'critical' } },
    ],
  },
  'under / critical / over-damped': {
    settleTime: 1, rate: 60, motion: 'steps',
    note: 'Under-damped (ζ < 1) starts faster and overshoots; critical (ζ = 1) is the fastest with no overshoot; over-damped (ζ > 1) creeps in.',
    lanes: [
      { kind: 'pd', label: 'under-damped ζ = 0.3', options: { damping: 0.3 } },
      { kind: 'pd', label: 'responsive ζ = 0.71', options: { damping: 'responsive' } },
      { kind: 'pd', label: 'critical ζ = 1', options: { damping: 'critical' } },
      { kind: 'pd', label: 'over-damped ζ = 1.5', options: { damping: 'over' } },
    ],
  },
  'velocity cap (robotic)': {
    settleTime: 0.6, rate: 60, motion: 'steps',
    note: 'maxVelocity caps the speed: long moves become constant-speed ramps with abrupt starts and stops, which reads as robotic.',
    lanes: [
      { kind: 'pd', label: 'critical', options: {} },
      { kind: 'pd', label: 'critical, maxVelocity 1.2/s', options: { maxVelocity: 1.2 } },
    ],
  },
  'explicit Euler vs exact: frame rate': {
    settleTime: 0.5, rate: 30, motion: 'steps',
    note: 'Move the update rate: the exact curve stays the same at every rate; the explicit Euler curve changes with it (and overshoots at low rates).',
    lanes: [
      { kind: 'pd', label: 'exact (ikpd)', options: { integrator: 'exact' } },
      { kind: 'naive', label: 'explicit Euler (naive, scene code)' },
    ],
  },
  'explicit Euler vs exact: large step': {
    settleTime: 0.2, rate: 10, motion: 'steps',
    note: 'At 10 Hz the step is past explicit Euler’s stability limit: it diverges. The exact integrator is stable at any step.',
    lanes: [
      { kind: 'pd', label: 'exact (ikpd)', options: { integrator: 'exact' } },
      { kind: 'naive', label: 'explicit Euler (naive, scene code)' },
    ],
  },
  'moving target: lag, feed-forward, PID': {
    settleTime: 0.5, rate: 60, motion: 'sweep',
    note: 'A target moving at constant speed: plain PD lags by kd/kp·speed. Feed-forward of the target’s velocity (targetMotion "linear", feedForward 1) removes the lag at once; an integral term (ki, PID) removes it after a while.',
    lanes: [
      { kind: 'pd', label: 'PD (lags)', options: {} },
      { kind: 'pd', label: 'feed-forward', options: { targetMotion: 'linear', feedForward: 1 } },
      { kind: 'pd', label: 'PID (ki = 600)', options: { ki: 600, targetMotion: 'linear' } },
    ],
  },
  'IK offset and blend-out': {
    settleTime: 0.4, rate: 60, motion: 'steps', animation: true,
    note: 'An animated angle (grey) plus IK toward the target, switched on and off every 3 s. Smoothing the raw angle also filters the animation’s wiggle; smoothing the offset (trackOffset) keeps the animation, and with IK off the offset blends out to exactly 0.',
    lanes: [
      { kind: 'raw', label: 'smoothed raw angle', options: {} },
      { kind: 'offset', label: 'smoothed IK offset (trackOffset)', options: {} },
    ],
  },
};
export const PRESET_NAMES = Object.keys(PRESETS);

/** The animated angle of the IK-offset preset (a wiggle), and its rate of change. */
export const animation = (t) => 0.5 * Math.sin(2 * Math.PI * 0.6 * t);
export const animationRate = (t) => 0.5 * 2 * Math.PI * 0.6 * Math.cos(2 * Math.PI * 0.6 * t);

/** 'sweep': a triangle wave between ±1.5 at SWEEP_SPEED. */
export function sweep(t) {
  const period = (4 * 1.5) / SWEEP_SPEED;
  const p = (((t % period) + period) % period) / period;
  return p < 0.5 ? -1.5 + 6 * p : 4.5 - 6 * p;
}
