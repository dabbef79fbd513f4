// Run by tests/js/rig/ikRigAlloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs): a humanoid IKRig
// (4 two-bone limbs, a 6-joint look-at, 2 eye aims) and two TwoBoneIKs (one at weight
// 0.75, one turning its end to an object's rotation) and a ChainIK with limits, updated
// 4 × 5,000 times with moving targets and a toggled setting; the probe counts the
// bytes they allocate.
import { Object3D, Vector3 } from 'three';
import { init } from '../../web/index.js';
import { ChainIK, IKRig, TwoBoneIK } from '../../web/three/index.js';
import { buildHumanoid } from './three-humanoid.js';
import { buildChain } from './three-rig.js';
import { measureAllocation } from './alloc-probe.mjs';

const ikpd = await init({ rig: true });
const { scene } = buildHumanoid({ axes: 'mixed', mixamoArmature: true });
const rig = new IKRig(ikpd, scene);
const hand = new Vector3(0.3, 1.2, 0.3), look = new Vector3(0.5, 1.7, 2);
const limbs = [['leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm', 'rightHand'],
  ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']];
const targets = [hand, [-0.3, 1.2, 0.3], [0.1, 0.12, 0.1], [-0.1, 0.12, -0.05]];
const constraints = limbs.map((bones, i) => rig.add('twoBone', { bones, target: targets[i], settleTime: 0.1 }));
rig.add('lookAt', { bones: ['hips', 'spine', 'chest', 'upperChest', 'neck', 'head'], target: look });
for (const eye of ['leftEye', 'rightEye']) rig.add('aim', { bone: eye, target: look });
// And a helper (a one-constraint rig) on another character.
const other = buildHumanoid({ axes: '-z' }).bones;
const arm = new TwoBoneIK(ikpd, [other.leftUpperArm, other.leftLowerArm, other.leftHand], { target: hand, settleTime: 0.1, weight: 0.75 });
// One that also turns its end to an object's rotation.
const handle = new Object3D();
handle.position.set(-0.3, 1.2, 0.3);
// And a tail with cone limits (ChainIK's prepared-solver path).
const tail = buildChain({ lengths: [0.2, 0.2, 0.2, 0.2], bend: 0.1 });
const chain = new ChainIK(ikpd, [...tail.bones, tail.tip], { target: look, limits: [null, { type: 'cone', angle: 0.6 }, { type: 'cone', angle: 0.6 }, null, null] });
const grip = new TwoBoneIK(ikpd, [other.rightUpperArm, other.rightLowerArm, other.rightHand], { target: handle, endRotation: 'target' });
const frame = (i) => {
  hand.x = 0.3 + 0.05 * Math.sin(i * 0.01);
  look.x = 0.5 + Math.sin(i * 0.003);
  // A setting toggled now and then: a change is checked and packed once (that
  // allocates, by design: about 5 kB), every 16,384 frames, so at least two of
  // the probe's four rounds of 5,000 frames see none (it takes the least).
  constraints[0].enabled = (i >> 14) % 2 === 0;
  rig.update(1 / 60);
  arm.update(1 / 60);
  handle.position.y = 1.2 + 0.05 * Math.sin(i * 0.01);
  handle.rotation.z = Math.sin(i * 0.002);
  handle.updateMatrixWorld();
  grip.update(1 / 60);
  chain.update(1 / 60);
};
// The probe's warm-up (at least 2 s) is long enough for V8's optimizing tier,
// whose background compiler a busy machine starves (code still in a lower tier
// boxes numbers, which reads as garbage).
measureAllocation('ikRig', frame);
rig.dispose();
arm.dispose();
grip.dispose();
chain.dispose();
