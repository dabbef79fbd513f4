// The demo's scenes, in switcher order. Each module exports `create(ctx)`
// returning { update(dt, time), state(), dispose() } (all optional).
// `requires` names the ikpd / ikpd/three members a scene needs; a scene whose
// members are missing shows a notice instead. Captions name handles by the
// colours in lib/stage.js, with a swatch of each.
import { colors, swatch } from '../lib/stage.js';

export const sceneList = [
  {
    id: 'aim',
    requires: ['solveAim'],
    title: 'One-bone aim',
    description: `Three aim methods side by side: yaw + pitch, cross product and shortest arc agree on X but not on Y/Z. Drag the ${swatch(colors.target, 'red target')}; tick “up target” for the ${swatch(colors.up, 'green up handle')}.`,
    load: () => import('./aim.js'),
  },
  {
    id: 'two-bone',
    requires: ['solveTwoBone', 'three.TwoBoneIK'],
    title: 'Two-bone arm',
    description: `Law-of-cosines limb IK with pole, bend direction, elbow limits, soften, stretch and a fingertip effector offset. Drag the ${swatch(colors.target, 'red target')} (${swatch(colors.reached, 'green')} when reached) or the ${swatch(colors.pole, 'blue pole')}.`,
    load: () => import('./twoBone.js'),
  },
  {
    id: 'quadruped',
    requires: ['solvePseudoThreeBone', 'three.PseudoThreeBoneIK', 'Rig', 'three.IKRig'],
    title: 'Pseudo three-bone legs',
    description: `A procedural quadruped trots toward the ${swatch(colors.accent, 'amber lure')}; each leg is hip → knee → ankle → toe solved by running the two-bone solver twice, and a four-legged grounding stands the toes on the hills and pitches the pelvis and chest to the slope.`,
    load: () => import('./quadruped.js'),
  },
  {
    id: 'tentacle',
    requires: ['Tentacle2D'],
    title: '2D tentacle',
    description: `Incremental CCD: every joint turns at most one step per update, within its limit; with “escape knots” on it unwinds when it gets stuck. Move the pointer over the wall; the ${swatch(colors.target, 'red handle')} follows it.`,
    load: () => import('./tentacle.js'),
  },
  {
    id: 'look-at',
    requires: ['BodyLookAt', 'three.BodyLookAtIK'],
    title: 'Full-body look-at',
    description: `A skinned humanoid looks at the ${swatch(colors.target, 'red target')} through BodyLookAtIK: the head leads the spine, the hips shift, the arms lag the chest and the feet stay planted. The ghost beside it plays the same idle with IK off.`,
    load: () => import('./lookAt.js'),
  },
  {
    id: 'chains',
    requires: ['solveChain', 'three.ChainIK', 'three.AimIK'],
    title: 'CCD and FABRIK chains',
    description: `One five-bone chain three times: ikpd’s CCD and FABRIK and three.js’s CCDIKSolver reach for the same offset from their roots, with the same limits, iterations and tolerance; the panel compares their errors and iterations. Drag the ${swatch(colors.target, 'red target')}; an eye follows it through AimIK.`,
    load: () => import('./chains.js'),
  },
  {
    id: 'pd',
    requires: ['PD', 'gainsFromSettleTime', 'checkStability'],
    title: 'PD interpolation',
    description: `PD controllers side by side follow the ${swatch(colors.target, 'red target')}: presets for damping, a velocity cap, explicit Euler against ikpd’s exact integrator, a moving target (feed-forward, PID) and an IK offset’s blend-out. Change the update rate: the exact curves stay the same.`,
    load: () => import('./pd.js'),
  },
  {
    id: 'character',
    requires: ['Rig', 'three.IKRig'],
    title: 'Character rig',
    description: `One IKRig on a skinned humanoid: it walks with grounding over a low platform, the spine, neck and head look at the camera or the ${swatch(colors.target, 'red target')}, the right hand reaches for the ${swatch(colors.accent, 'amber cup')} as it passes, and each part blends in and out without a pop. Drop a .glb, .gltf or .vrm humanoid onto the page to try your own character.`,
    load: () => import('./character.js'),
  },
  {
    id: 'avatar',
    requires: ['Rig', 'three.AvatarIK'],
    title: 'Avatar from tracking',
    description: `A whole body from a head and two hands through AvatarIK: the pelvis follows the head, the spine bends to it, the shoulders turn toward the hands, arms and legs are two-bone solves. The targets play a scripted tracking session (look around, crouch, reach overhead and behind the back, hands behind the head, turn); drag the ${swatch(colors.target, 'red head')}, ${swatch(colors.pole, 'blue left hand')} or ${swatch(colors.accent, 'amber right hand')} target to take over. Where the browser offers VR, “enter VR” tracks the headset and controllers. Drop a .glb, .gltf or .vrm humanoid onto the page to try your own character.`,
    load: () => import('./avatar.js'),
  },
  {
    id: 'springs',
    requires: ['Rig', 'three.IKRig'],
    title: 'Spring bones',
    description: 'Two humanoids turn and hop with hair, a tail and a skirt of VRM spring bones (the skirt resting on capsules round the thighs): on the left through IKRig’s springs constraint, on the right a ghost through three-vrm’s spring bone manager, with the same VRM parameters. Change the update rate: the panel reads how far each tip is from its own 60 Hz motion, within a millimetre for ikpd and centimetres for three-vrm.',
    load: () => import('./springs.js'),
  },
  {
    id: 'springs-crowd',
    requires: ['Rig', 'RigBatch'],
    title: 'Spring bones in a crowd',
    description: '500 stick avatars (50 to 2,000 with the avatars control), each with five hair chains on the head and a tail of VRM spring bones, are one RigBatch: one update per frame steps every spring joint of every avatar, on two threads where the page is cross-origin isolated. Each head turns and nods and each body sways and hops on its own phase; the panel reads the time per frame.',
    load: () => import('./springsCrowd.js'),
  },
  {
    id: 'grounding',
    requires: ['Rig', 'three.IKRig'],
    title: 'Grounding',
    description: 'A skinned humanoid walks a course of a 20° ramp, stairs, a 15 cm step, a sideways slope and bumps: an IKRig grounding constraint raycasts the course (three-mesh-bvh) under each foot, puts the soles on it, turns them to the slope, lowers the pelvis and locks planted feet. The ghost walks the same cycle with grounding off; turn each part off to see it blend out.',
    load: () => import('./grounding.js'),
  },
  {
    id: 'samples',
    requires: ['Rig', 'three.IKRig'],
    title: 'Sample characters',
    description: `Two Khronos sample characters with their own clips, moved forward at the speed of their stance feet: CesiumMan walks the grounding course (an IKRig grounding on the course’s meshes, and a look-at toward the ${swatch(colors.target, 'red target')}); the Fox walks, runs or surveys on hills with a four-legged grounding. The panel reads how far stance soles are from their target (the ground under them plus the clip’s own clearance) and how far they slide.`,
    load: () => import('./samples.js'),
  },
  {
    id: 'transitions',
    requires: ['three.Inertializer'],
    title: 'Inertialized transitions',
    description: 'Two copies of the Fox (or the humanoid) switch between the same clips. The left one through the Inertializer: the new clip plays alone at once, and the offset from the old pose decays with a critically damped spring, so the pose and its speed go on without a jump. The ghost on the right uses crossFadeTo, blending both clips for the whole fade. Switch with the clip control or the keys (the clip’s first letter), or turn on rapid switching; the plot shows a front paw’s height and the hips’ angular speed for both.',
    load: () => import('./transitions.js'),
  },
  {
    id: 'hdr',
    requires: [],
    title: 'HDR output',
    description: 'Bright emissive lights through ikpd’s output transform: the SDR filmic curve in the darks, rising toward the display peak in the highlights. Drag the split grip or the white light.',
    load: () => import('./hdr.js'),
  },
  {
    id: 'crowd',
    requires: ['TwoBoneBatch', 'AimBatch', 'QuatPDBatch'],
    title: 'Crowd',
    description: `2,000 characters (up to 10,000) walk over uneven ground and look at the ${swatch(colors.target, 'red target')}. Three batches solve them all each frame: TwoBoneBatch for the legs (feet on the ground) and arms, AimBatch + QuatPDBatch for a five-joint look-at; one InstancedMesh per bone segment draws them. The solver control (?solver=rigBatch) swaps in one RigBatch: one call per frame for them all.`,
    load: () => import('./crowd.js'),
  },
];
