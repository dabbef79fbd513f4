// The path three.js users take: helpers and IKRig on a skinned humanoid's
// bones (tests/support/three-humanoid.js, +Y bones with rest rotations, as
// exporters write them), per character per frame, reading and writing the
// three.js bones included. Not shipped; bench/run.mjs only.
import { Object3D, Vector3 } from 'three';
import { AimIK, AvatarIK, BodyLookAtIK, ChainIK, IKRig, LookAtIK, TwoBoneIK } from '../../web/three/index.js';
import { buildHumanoid } from '../../tests/support/three-humanoid.js';
import { buildChain } from '../../tests/support/three-rig.js';

export const LIMBS = {
  leftArm: ['leftUpperArm', 'leftLowerArm', 'leftHand'],
  rightArm: ['rightUpperArm', 'rightLowerArm', 'rightHand'],
  leftLeg: ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'],
  rightLeg: ['rightUpperLeg', 'rightLowerLeg', 'rightFoot'],
};
export const SPINE = ['hips', 'spine', 'chest', 'upperChest', 'neck', 'head'];

// Targets that move a little every frame, so nothing settles into a cached state.
export function targets() {
  return {
    leftArm: new Vector3(0.3, 1.2, 0.3), rightArm: new Vector3(-0.3, 1.2, 0.3),
    leftLeg: new Vector3(0.1, 0.12, 0.1), rightLeg: new Vector3(-0.1, 0.12, -0.05),
    look: new Vector3(0.5, 1.7, 2),
  };
}
export function wiggle(t, frame) {
  const s = 0.02 * Math.sin(frame * 0.1);
  t.leftArm.x = 0.3 + s; t.rightArm.x = -0.3 - s; t.leftLeg.z = 0.1 + s; t.rightLeg.z = -0.05 - s; t.look.x = 0.5 + 10 * s;
}

/** The humanoid rig's constraints (4 two-bone limbs, a 6-joint look-at, 2 eye aims) added to `rig`, aimed at `t` (targets()). */
export function addHumanoid(rig, t) {
  for (const [name, bones] of Object.entries(LIMBS)) rig.add('twoBone', { bones, target: t[name] });
  // The eyes as two aims, the same work as the helpers below (not the look-at's own eyes).
  rig.add('lookAt', { bones: SPINE, target: t.look, eyes: [] });
  for (const eye of ['leftEye', 'rightEye']) rig.add('aim', { bone: eye, target: t.look });
  return rig;
}

/**
 * ns per character per frame for: one TwoBoneIK limb, one IKRig two-bone
 * limb, and the humanoid (2 arms + 2 legs two-bone, 6-joint look-at, 2 eye
 * aims) through IKRig and through one helper per constraint; one avatar
 * frame (head and hand Object3D targets) through AvatarIK and IKRig.
 */
export function benchThreeRig(ikpd, measure) {
  const out = {};
  let frame = 0;
  {
    const { bones } = buildHumanoid();
    const t = targets();
    const arm = new TwoBoneIK(ikpd, LIMBS.leftArm.map((r) => bones[r]), { target: t.leftArm });
    out.twoBoneIK = measure(() => { wiggle(t, frame++); arm.update(); }, 1);
    arm.dispose();
  }
  {
    const { scene } = buildHumanoid();
    const t = targets();
    const rig = new IKRig(ikpd, scene);
    rig.add('twoBone', { bones: LIMBS.leftArm, target: t.leftArm });
    out.rigTwoBone = measure(() => { wiggle(t, frame++); rig.update(1 / 60); }, 1);
    rig.dispose();
  }
  {
    const { scene } = buildHumanoid();
    const t = targets();
    const rig = addHumanoid(new IKRig(ikpd, scene), t);
    out.rigHumanoid = measure(() => { wiggle(t, frame++); rig.update(1 / 60); }, 1);
    rig.dispose();
  }
  {
    const { bones } = buildHumanoid();
    const t = targets();
    const helpers = Object.entries(LIMBS).map(([name, roles]) => new TwoBoneIK(ikpd, roles.map((r) => bones[r]), { target: t[name] }));
    const look = new LookAtIK(ikpd, SPINE.map((r) => bones[r]), { target: t.look });
    const eyes = ['leftEye', 'rightEye'].map((r) => new AimIK(ikpd, bones[r], { target: t.look, forward: '+z' }));
    out.helpersHumanoid = measure(() => {
      wiggle(t, frame++);
      for (const h of helpers) h.update();
      look.update(1 / 60);
      for (const e of eyes) e.update();
    }, 1);
    for (const h of [...helpers, look, ...eyes]) h.dispose();
  }
  {
    // Full-body look-at: the core class (world-space joints in, as its API takes them), the helper and IKRig.
    const { scene, bones } = buildHumanoid();
    const t = targets();
    const joint = (role) => {
      bones[role].updateWorldMatrix(true, false);
      const p = new Vector3(), q = bones[role].quaternion.clone(), s = new Vector3();
      bones[role].matrixWorld.decompose(p, q, s);
      return { position: p.toArray(), rotation: q.toArray() };
    };
    const input = {
      spine: SPINE.map(joint),
      arms: [...LIMBS.leftArm, ...LIMBS.rightArm].map(joint),
      legs: [...LIMBS.leftLeg, ...LIMBS.rightLeg].map(joint),
      target: [0.5, 1.7, 2],
    };
    const body = new ikpd.BodyLookAt({ forward: [0, 0, 1] });
    out.bodyLookAt = measure(() => { input.target[0] = 0.5 + 0.2 * Math.sin(frame++ * 0.1); body.update(1 / 60, input); }, 1);
    body.dispose();
    const helper = new BodyLookAtIK(ikpd, scene, { bones: 'mixamo', target: t.look });
    out.bodyLookAtIK = measure(() => { wiggle(t, frame++); helper.update(1 / 60); }, 1);
    helper.dispose();
    const rig = new IKRig(ikpd, buildHumanoid().scene);
    rig.add('bodyLookAt', { target: t.look });
    out.rigBodyLookAt = measure(() => { wiggle(t, frame++); rig.update(1 / 60); }, 1);
    rig.dispose();
  }
  {
    // The avatar (docs/rig/avatar.md): head and hand targets near their rest places, moving a little.
    const avatarTargets = (bones) => {
      const t = { head: new Object3D(), leftHand: new Object3D(), rightHand: new Object3D() };
      for (const role of Object.keys(t)) bones[role].getWorldQuaternion(t[role].quaternion);
      return t;
    };
    const move = (t) => {
      const s = 0.02 * Math.sin(frame++ * 0.1);
      t.head.position.set(s, 1.54, 0.05);
      t.leftHand.position.set(0.3 + s, 1.2, 0.3);
      t.rightHand.position.set(-0.3 - s, 1.2, 0.3);
    };
    const human = buildHumanoid();
    const t = avatarTargets(human.bones);
    const avatar = new AvatarIK(ikpd, human.scene, t);
    out.avatarIK = measure(() => { move(t); avatar.update(1 / 60); }, 1);
    avatar.dispose();
    const other = buildHumanoid();
    const u = avatarTargets(other.bones);
    const rig = new IKRig(ikpd, other.scene);
    rig.add('avatar', u);
    out.rigAvatar = measure(() => { move(u); rig.update(1 / 60); }, 1);
    rig.dispose();
  }
  {
    // A 10-bone chain: ChainIK on three.js bones against the prepared solver's call alone.
    const { bones } = buildChain({ lengths: Array(10).fill(0.2), bend: 0.15 });
    const target = new Vector3();
    const tip = new Vector3();
    bones[0].getWorldPosition(tip);
    const chain = new ChainIK(ikpd, bones, { target });
    const move = () => { target.copy(tip).add(new Vector3(0.8, 0.9 + 0.1 * Math.sin(frame++ * 0.1), 0.3)); };
    out.chainIK = measure(() => { move(); chain.update(); }, 1);
    chain.dispose();
    const solver = new ikpd.ChainSolver(bones.length);
    const frameInput = { joints: bones.map((b) => { const p = new Vector3(), q = b.quaternion.clone(), s = new Vector3(); b.matrixWorld.decompose(p, q, s); return { position: p.toArray(), rotation: q.toArray() }; }), target: [0, 0, 0] };
    out.chainSolver = measure(() => { move(); target.toArray(frameInput.target); solver.solve(frameInput); }, 1);
    solver.dispose();
  }
  return out;
}
