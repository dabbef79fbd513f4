// Compiled by tests/js/typings-tsc.test.js with `tsc --strict --noEmit`: what
// a TypeScript user writes must type-check, and each `@ts-expect-error` line
// must stay an error (the typings reject it).
import { Quaternion, Vector3, Bone, Plane, AnimationMixer, AnimationClip } from 'three';
import { init, type Vec3, type Quat } from '../../web/index.js';
import { TwoBoneIK, LookAtIK, AvatarIK, AimIK, ChainIK, PseudoThreeBoneIK, Inertializer, type IKRig } from '../../web/three/index.js';
import { hdrToneMapping } from '../../web/three/hdr/hdr.js';

const ikpd = await init();
const threads: number = ikpd.threads;
void init({ threads: 2 });
void init({ rig: true, batch: true });
const areas: readonly string[] = ikpd.areas;
// @ts-expect-error rig is a boolean
void init({ rig: 1 });
// @ts-expect-error threads is a number
void init({ threads: '2' });

const tuple: Vec3 = [0, 1, 2];
const f32: Vec3 = new Float32Array(3);
const f64: Quat = new Float64Array(4);
const v: Vec3 = new Vector3(1, 2, 3);
const q: Quat = new Quaternion();
const plain: Vec3 = { x: 1, y: 2, z: 3 };
// @ts-expect-error two numbers are not a vector
const short: Vec3 = [0, 1];
// @ts-expect-error a vector is not a quaternion
const notQuat: Quat = new Vector3();
void [tuple, f32, f64, v, q, plain, short, notQuat];

const result = ikpd.solveTwoBone({
  root: { position: new Vector3(), rotation: new Quaternion() },
  mid: { position: [0, -0.3, 0] },
  end: { position: new Float32Array([0, -0.6, 0]) },
  target: new Vector3(0.2, -0.5, 0.1),
  pole: { x: 0, y: 0, z: 1 },
  endRotation: 'relative',
});
const reached: boolean = result.reached;
void reached;

const bones = [new Bone(), new Bone(), new Bone()] as const;
const ik = new TwoBoneIK(ikpd, bones, { target: new Vector3(), endRotation: 'relative' });
ik.update();
// Every helper is a one-constraint IKRig: the rig's smoothing settings, update(dt).
ik.settleTime = 0.2;
ik.enabled = false;
ik.damping = 'responsive';
ik.update(1 / 60);
const helperRig: IKRig = ik.rig;
// settleTime and damping only on the kinds that have them.
const bodyLook = helperRig.add('bodyLookAt', { target: [0, 1, 2] });
// @ts-expect-error bodyLookAt has no settleTime (its groups have their own)
bodyLook.settleTime = 0.5;
// @ts-expect-error nor damping
helperRig.add('bodyLookAt', { damping: 2 });
helperRig.add('lookAt', { target: [0, 1, 2] }).settleTime = 0.5;
void helperRig.constraints.length;
// Grounding through IKRig (web/three/rig/grounding.d.ts): meshes, a function or a Plane.
helperRig.add('grounding', { ground: [new Bone()], maxFootPitch: 0.3, plant: [-1, 1] });
helperRig.add('grounding', { ground: (x: number, y: number, z: number) => (x + y + z > 0 ? { height: 0.1, normal: [0, 1, 0] } : null) });
helperRig.add('grounding', { ground: new Plane(new Vector3(0, 1, 0), 0), legs: [['a', 'b', 'c'], ['d', 'e', 'f']] });
// @ts-expect-error a ground function answers with { height, normal? }, not a number
helperRig.add('grounding', { ground: () => 3 });
ik.dispose();
// @ts-expect-error the helpers need the initialised module, not the promise
new TwoBoneIK(init(), bones);
const helpers = [ik, new LookAtIK(ikpd, [...bones]), new AimIK(ikpd, bones[0]), new ChainIK(ikpd, [...bones]),
  new PseudoThreeBoneIK(ikpd, [bones[0], bones[1], bones[2], new Bone()])];
for (const helper of helpers) helper.dispose();
// The smoothed rigs' shared members (SmoothedRigIK) on LookAtIK.
const lookAtIK = new LookAtIK(ikpd, [...bones]);
lookAtIK.weight = 0.5;
const stillActive: boolean = lookAtIK.update(1 / 60).clear().active;
lookAtIK.dispose();
// @ts-expect-error update takes dt in seconds
lookAtIK.update();
// AvatarIK: a humanoid from a head and two hand targets.
const avatarIK = new AvatarIK(ikpd, new Bone(), { head: new Bone(), leftHand: null, rightHandWeight: 0.5, humanoid: { hips: 'Hips' }, pelvisFollow: 0.3 });
avatarIK.leftHand = new Bone();
avatarIK.headWeight = 0;
const avatarActive: boolean = avatarIK.update(1 / 60).clear().active;
avatarIK.dispose();
// @ts-expect-error a target is an Object3D
new AvatarIK(ikpd, new Bone(), { head: [0, 1, 0] });
void avatarActive;

// The character rig (web/types/rig/rig.d.ts).
const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2], names: ['hips', 'upper', 'lower', 'hand'], facing: [0, 0, 1] });
const arm = rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2, bendDirection: 'negative' });
arm.set({ weight: 0.5, enabled: false });
const armWeight: number = arm.get('weight');
const head = rig.add('lookAt', { joints: [0, 1, 2], damping: 'responsive' });
rig.frames.set([1, 1, 0], arm.frameOffset);
rig.update(1 / 60);
const solved: Float32Array = rig.output;
const twoBoneDefault: number = ikpd.Rig.defaults.twoBone.weight;
void [armWeight, head.kind, solved, twoBoneDefault, rig.changed[0], rig.results[arm.resultOffset]];
// @ts-expect-error unknown kind
rig.add('fourBone', { joints: [0] });
rig.dispose();

// hdrToneMapping takes the three settings; its input and encoding are fixed (web/three/hdr/hdr.js).
void hdrToneMapping({ paperWhite: 200, peak: 1000, saturation: 0.5 }, { hdr: false });
// @ts-expect-error input is not an option of the tone mapping
void hdrToneMapping({ paperWhite: 200, input: 'display' });
// @ts-expect-error encoding is not an option of the tone mapping
void hdrToneMapping({ encoding: 'pq' });

// Inertializer: a spring instead of crossFadeTo, after the mixer.
const mixer = new AnimationMixer(new Bone());
const inertia = new Inertializer(ikpd, mixer, { halfLife: 0.1 });
inertia.transition(mixer.clipAction(new AnimationClip('run', 1, [])), { halfLife: 0.15 }).update(1 / 60);
const coreInertia = new ikpd.Inertializer(24, { halfLife: 0.1 });
coreInertia.input.set(coreInertia.output);
coreInertia.transition({ velocity: false }).update(1 / 60).fill(0);
