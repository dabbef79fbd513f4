// The demo's scenes, in switcher order. Each module exports `create(ctx)`
// returning { update(dt, time), state(), dispose() } (all optional).
// `requires` names the ikpd / ikpd/three members a scene needs; a scene whose
// members are missing shows a notice instead.
export const sceneList = [
  {
    id: 'aim',
    requires: ['solveAim'],
    title: 'One-bone aim',
    description: 'Three aim methods side by side: yaw + pitch, cross product and shortest arc agree on X but not on Y/Z. Drag the target; the green handle is the up target.',
    load: () => import('./aim.js'),
  },
  {
    id: 'two-bone',
    requires: ['solveTwoBone', 'three.TwoBoneIK'],
    title: 'Two-bone arm',
    description: 'Law-of-cosines limb IK with pole, bend direction, elbow limits, soften, stretch and a fingertip effector offset. Drag the red target or the blue pole.',
    load: () => import('./twoBone.js'),
  },
  {
    id: 'quadruped',
    requires: ['solvePseudoThreeBone', 'three.PseudoThreeBoneIK'],
    title: 'Pseudo three-bone legs',
    description: 'A procedural quadruped walks over uneven ground; each leg is hip → knee → ankle → toe solved by running the two-bone solver twice.',
    load: () => import('./quadruped.js'),
  },
  {
    id: 'tentacle',
    requires: ['Tentacle2D'],
    title: '2D tentacle',
    description: 'Incremental CCD from the seed: every joint turns at most one step per update, within its limit. Move the pointer over the wall.',
    load: () => import('./tentacle.js'),
  },
  {
    id: 'look-at',
    requires: ['QuatPD', 'solveAim'],
    title: 'PD look-at',
    description: 'Head, neck and spine turn toward the target; each joint offset is smoothed by a quaternion PD controller. Change the update rate: the motion stays the same.',
    load: () => import('./lookAt.js'),
  },
  {
    id: 'hdr',
    requires: [],
    title: 'HDR output',
    description: 'Bright emissive lights through ikpd’s output transform: the SDR filmic curve in the darks, rising toward the display peak in the highlights. Drag the split line or the light.',
    load: () => import('./hdr.js'),
  },
];
