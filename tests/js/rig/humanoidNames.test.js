// ikpd/three humanoid roles (docs/rig/rig.md, "Humanoid roles"): every
// exporter convention's names, in the spellings real files use, find every
// role on the same skeleton; names that say nothing fall back on the
// skeleton's shape (CesiumMan); a non-humanoid (the Fox) finds none and says
// why; `rig.humanoid` says what was found; bones outside the rig are named.
import { describe, expect, it } from 'vitest';
import { Bone, Group, PropertyBinding, Skeleton, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { HUMANOID_TABLES, IKRig } from '../../../web/three/index.js';
import { humanoidKey, resolveHumanoid } from '../../../web/three/rig/humanoid.js';
import { buildHumanoid, worldOf } from '../../support/three-humanoid.js';
import { loadCharacter } from '../../support/characters.js';
import { exportHumanoidGlb, loadGlb } from '../../support/gltf-round-trip.js';

const CONVENTIONS = Object.keys(HUMANOID_TABLES);
const LEG_ROLES = (side) => ['UpperLeg', 'LowerLeg', 'Foot', 'Toes'].map((p) => `${side}${p}`);

// Every role the table names resolves to its bone, and a grounding constraint finds the legs.
function expectRoles(rig, bones, table, convention) {
  expect(rig.humanoid.convention).toBe(convention);
  for (const role of Object.keys(table)) {
    if (!(role in bones)) continue;
    expect(rig.humanoid.get(role)?.name, role).toBe(bones[role].name);
    expect(rig.bone(role), role).toBe(bones[role]);
  }
  const grounding = rig.add('grounding', {});
  const legs = grounding.bones.legs;
  expect(legs.map((leg) => leg.map((b) => b.name))).toEqual(['left', 'right'].map((side) => LEG_ROLES(side).map((r) => bones[r].name)));
  expect(grounding.bones.pelvis).toBe(bones.hips);
}

describe('humanoid roles from the names exporters write', () => {
  it('has the conventions the docs list', () => {
    expect(CONVENTIONS).toEqual(['mixamo', 'bvh', 'vrm', 'vroid', 'unreal', 'rigify', 'cc', 'biped', 'daz']);
  });

  for (const convention of CONVENTIONS) {
    it(`finds every role of '${convention}' names, by 'auto' and by name`, () => {
      const table = HUMANOID_TABLES[convention];
      const { scene, bones } = buildHumanoid({ names: convention, axes: 'mixed', seed: 4 });
      const rig = new IKRig(ikpd, scene);
      expectRoles(rig, bones, table, convention);
      rig.dispose();
      const named = new IKRig(ikpd, scene, { humanoid: convention });
      expect(named.humanoid.convention).toBe(convention);
      expect([...named.humanoid.keys()]).toEqual([...rig.humanoid.keys()]);
      named.dispose();
    });
  }

  // Each variant of the names a file may carry, and the convention 'auto' reports.
  const VARIANTS = [
    ['mixamo', 'mixamorig:', (n) => n.replace('mixamorig', 'mixamorig:'), 'mixamo'],
    ['mixamo', 'mixamorig1:', (n) => n.replace('mixamorig', 'mixamorig1:'), 'mixamo'],
    ['mixamo', 'mixamorig12: sanitised by GLTFLoader', (n) => PropertyBinding.sanitizeNodeName(n.replace('mixamorig', 'mixamorig12:')), 'mixamo'],
    ['mixamo', 'no prefix', (n) => n.replace('mixamorig', ''), 'bvh'],
    ['mixamo', 'a Character1: namespace', (n) => n.replace('mixamorig', 'Character1:'), 'bvh'],
    ['mixamo', "Blender's Armature|", (n) => `Armature|${n}`, 'mixamo'],
    ['rigify', 'sanitised by GLTFLoader (DEF-thighL, DEF-spine001)', (n) => PropertyBinding.sanitizeNodeName(n), 'rigify'],
    ['biped', "'Bip001' with underscores", (n) => n.replace('Bip01 ', 'Bip001_').replace(/ /g, '_'), 'biped'],
    ['unreal', 'upper case sides (thigh_L)', (n) => n.replace(/_([lr])$/, (_, s) => `_${s.toUpperCase()}`), 'unreal'],
    ['vroid', 'a namespace', (n) => `VRM:${n}`, 'vroid'],
  ];
  for (const [convention, label, rename, expected] of VARIANTS) {
    it(`finds every role of '${convention}' names written with ${label}`, () => {
      const { scene, bones } = buildHumanoid({ names: convention, rename, axes: '+y' });
      expect(bones.leftUpperLeg.name).not.toBe(HUMANOID_TABLES[convention].leftUpperLeg);
      const rig = new IKRig(ikpd, scene);
      expectRoles(rig, bones, HUMANOID_TABLES[convention], expected);
      expect(new IKRig(ikpd, scene, { humanoid: convention }).bone('rightFoot')).toBe(bones.rightFoot);
      rig.dispose();
    });
  }

  // The side in every usual spelling, on the BVH vocabulary ('UpLeg', 'ForeArm', …).
  const SIDES = {
    'Left…': (side, rest) => `${side === 'left' ? 'Left' : 'Right'}${rest}`,
    'L_…': (side, rest) => `${side === 'left' ? 'L' : 'R'}_${rest}`,
    '…_l': (side, rest) => `${rest}_${side[0]}`,
    '….L': (side, rest) => `${rest}.${side[0].toUpperCase()}`,
    '…_R': (side, rest) => `${rest}_${side[0].toUpperCase()}`,
    'l… (DAZ)': (side, rest) => `${side[0]}${rest}`,
    '… Left': (side, rest) => `${rest} ${side === 'left' ? 'Left' : 'Right'}`,
  };
  for (const [label, spell] of Object.entries(SIDES)) {
    it(`reads the side spelt ${label}`, () => {
      const rename = (name) => name.replace(/^(Left|Right)(.+)$/, (_, side, rest) => spell(side.toLowerCase(), rest));
      const { scene, bones } = buildHumanoid({ names: 'bvh', rename });
      const rig = new IKRig(ikpd, scene);
      expectRoles(rig, bones, HUMANOID_TABLES.bvh, 'bvh');
      rig.dispose();
    });
  }

  // Through GLTFExporter and GLTFLoader, which sanitise node names ('mixamorig1:Hips' → 'mixamorig1Hips').
  for (const [convention, rename] of [['mixamo', (n) => n.replace('mixamorig', 'mixamorig1:')], ['rigify', (n) => n], ['biped', (n) => n], ['unreal', (n) => n]]) {
    it(`finds every role of '${convention}' names in a character written and read back as glTF`, async () => {
      const gltf = await loadGlb(await exportHumanoidGlb({ names: convention, rename, axes: 'mixed', mixamoArmature: true, seed: 6 }));
      let mesh = null;
      gltf.scene.traverse((o) => { if (o.isSkinnedMesh) mesh = o; });
      gltf.scene.updateMatrixWorld(true);
      const rig = new IKRig(ikpd, mesh);
      expect(rig.humanoid.convention).toBe(convention);
      const table = HUMANOID_TABLES[convention];
      for (const role of Object.keys(table)) {
        expect(rig.humanoid.get(role)?.name, role).toBe(PropertyBinding.sanitizeNodeName(rename(table[role])));
      }
      rig.add('grounding', {});
      rig.dispose();
    });
  }

  it('normalises names to one key: namespaces, separators, case and the side aside', () => {
    const same = [
      ['mixamorig:LeftUpLeg', 'mixamorig1:LeftUpLeg', 'mixamorig12LeftUpLeg', 'Armature|LeftUpLeg', 'UpLeg_L', 'upleg.l', 'lUpLeg', 'L_UpLeg'],
      ['DEF-thigh.L', 'DEF-thighL'],
      ['Bip01 L Thigh', 'Bip01_L_Thigh', 'Bip002 L Thigh', 'thigh_l'],
    ];
    for (const names of same) expect(new Set(names.map(humanoidKey)).size, names.join(', ')).toBe(1);
    // Twist segments, fingers and the other side stay apart.
    const apart = ['DEF-thigh.L', 'DEF-thigh.L.001', 'DEF-thigh.R', 'LeftHand', 'LeftHandThumb1', 'spine_01', 'Spine1'];
    expect(new Set(apart.map(humanoidKey)).size).toBe(apart.length);
  });

  it("takes a Rigify limb's first segment, not its .001 twist segment", () => {
    // Names as GLTFLoader leaves them ('DEF-thighL', 'DEF-thighL001'): found by their keys, not exactly.
    const { scene, bones } = buildHumanoid({ names: 'rigify', rename: (n) => PropertyBinding.sanitizeNodeName(n) });
    const twists = [];
    for (const [role, next] of [['leftUpperLeg', 'leftLowerLeg'], ['leftUpperArm', 'leftLowerArm'], ['rightLowerLeg', 'rightFoot']]) {
      // DEF-thigh.L → DEF-thigh.L.001 → DEF-shin.L, as Rigify splits a limb.
      const twist = new Bone();
      twist.name = `${bones[role].name}001`;
      bones[role].add(twist);
      twist.position.copy(bones[next].position).multiplyScalar(0.5);
      scene.updateMatrixWorld(true);
      twist.attach(bones[next]);
      twists.push(twist);
    }
    scene.updateMatrixWorld(true);
    const objects = [];
    scene.traverse((o) => objects.push(o));
    // The twist segments first: the name, not the order, decides.
    const roles = resolveHumanoid('auto', [...twists, ...objects.filter((o) => !twists.includes(o))]);
    expect(roles.convention).toBe('rigify');
    for (const role of ['leftUpperLeg', 'leftLowerLeg', 'leftUpperArm', 'leftLowerArm', 'rightLowerLeg', 'rightFoot']) expect(roles.get(role), role).toBe(bones[role]);
    const rig = new IKRig(ikpd, scene);
    expect(rig.add('grounding', {}).bones.legs[0]).toEqual([bones.leftUpperLeg, bones.leftLowerLeg, bones.leftFoot, bones.leftToes]);
    rig.dispose();
  });

  it('a wrong table name is named, with the near miss', () => {
    const { scene } = buildHumanoid({ names: 'unreal' });
    expect(() => new IKRig(ikpd, scene, { humanoid: 'Unreal' })).toThrow(/did you mean 'unreal'/);
    expect(() => new IKRig(ikpd, scene, { humanoid: 'toString' })).toThrow(/humanoid: expected 'auto', 'none', 'structure', 'mixamo', 'bvh'/);
    expect(() => new IKRig(ikpd, scene, { humanoid: 'mixamo' })).toThrow(/humanoid 'mixamo': no bone found for the role\(s\) hips, spine/);
  });
});

describe('humanoid roles from the skeleton in the rest pose', () => {
  it('finds CesiumMan by its structure the same way whatever frame of its walk the rig is built in', async () => {
    const found = [];
    for (const at of [0, 0.5, 1.3]) {
      const { skinned, mixer, clip } = await loadCharacter('CesiumMan');
      mixer.clipAction(clip()).play();
      mixer.update(at);
      const rig = new IKRig(ikpd, skinned);
      found.push([...rig.humanoid.entries()].map(([role, bone]) => `${role}:${bone.name}`).join(' '));
      rig.dispose();
    }
    expect(found[0]).toContain('leftUpperLeg:leg_joint_L_1');
    expect(found[1]).toBe(found[0]);
    expect(found[2]).toBe(found[0]);
  });

  it('finds CesiumMan by its structure: left is +X, the character faces +Z', async () => {
    const { scene, skinned } = await loadCharacter('CesiumMan');
    for (const root of [skinned, scene]) {
      const rig = new IKRig(ikpd, root);
      const h = rig.humanoid;
      expect(h.convention).toBe('structure');
      const names = Object.fromEntries([...h].map(([role, bone]) => [role, bone.name]));
      expect(names).toEqual({
        hips: 'Skeleton_torso_joint_1', spine: 'Skeleton_torso_joint_2', chest: 'torso_joint_3',
        neck: 'Skeleton_neck_joint_1', head: 'Skeleton_neck_joint_2',
        leftUpperArm: 'Skeleton_arm_joint_L__4_', leftLowerArm: 'Skeleton_arm_joint_L__3_', leftHand: 'Skeleton_arm_joint_L__2_',
        rightUpperArm: 'Skeleton_arm_joint_R', rightLowerArm: 'Skeleton_arm_joint_R__2_', rightHand: 'Skeleton_arm_joint_R__3_',
        leftUpperLeg: 'leg_joint_L_1', leftLowerLeg: 'leg_joint_L_2', leftFoot: 'leg_joint_L_3', leftToes: 'leg_joint_L_5',
        rightUpperLeg: 'leg_joint_R_1', rightLowerLeg: 'leg_joint_R_2', rightFoot: 'leg_joint_R_3', rightToes: 'leg_joint_R_5',
      });
      // Checked against the scene, after the Z-up conversion nodes: left at +X, toes toward +Z, head up.
      for (const part of ['UpperLeg', 'UpperArm', 'Hand', 'Foot']) {
        expect(worldOf(h.get(`left${part}`)).x).toBeGreaterThan(0.03);
        expect(worldOf(h.get(`right${part}`)).x).toBeLessThan(-0.03);
      }
      expect(worldOf(h.get('leftToes')).z).toBeGreaterThan(worldOf(h.get('leftFoot')).z);
      expect(worldOf(h.get('head')).y).toBeGreaterThan(worldOf(h.get('hips')).y + 0.4);
      // The facing, in the frame of the skeleton's parent, is +Z in the scene.
      const facing = rig.facing.transformDirection(root === scene ? scene.matrixWorld : h.get('hips').parent.matrixWorld);
      expect(facing.z).toBeGreaterThan(0.9);
      const grounding = rig.add('grounding', {});
      expect(grounding.bones.legs[0].map((b) => b.name)).toEqual(['leg_joint_L_1', 'leg_joint_L_2', 'leg_joint_L_3', 'leg_joint_L_5']);
      rig.dispose();
    }
    expect(new IKRig(ikpd, skinned, { humanoid: 'structure' }).humanoid.get('head').name).toBe('Skeleton_neck_joint_2');
  });

  for (const [axes, mixamoArmature, turn] of [['+y', false, 0], ['random', true, 0], ['-z', false, Math.PI], ['mixed', true, Math.PI / 2]]) {
    it(`finds unnamed bones by structure (${axes} bones${mixamoArmature ? ', Mixamo armature' : ''}, turned ${turn.toFixed(2)} about up)`, () => {
      const { scene, bones } = buildHumanoid({ names: null, axes, mixamoArmature, seed: 8 });
      scene.rotation.y = turn;
      scene.updateMatrixWorld(true);
      const rig = new IKRig(ikpd, scene);
      expect(rig.humanoid.convention).toBe('structure');
      for (const [role, bone] of Object.entries(bones)) {
        if (role.endsWith('Eye')) expect(rig.humanoid.has(role)).toBe(false);
        else expect(rig.humanoid.get(role), role).toBe(bone);
      }
      rig.add('grounding', {});
      rig.dispose();
    });
  }

  it("finds unnamed bones by structure in a Z-up world (the rig's up option)", () => {
    const { scene, bones } = buildHumanoid({ names: null, axes: 'mixed', seed: 3 });
    scene.rotation.x = Math.PI / 2; // +Y → +Z
    scene.updateMatrixWorld(true);
    expect(new IKRig(ikpd, scene).humanoid.size).toBe(0); // lying down along +Y: no legs go down
    const rig = new IKRig(ikpd, scene, { up: '+z' });
    for (const [role, bone] of Object.entries(bones)) if (!role.endsWith('Eye')) expect(rig.humanoid.get(role), role).toBe(bone);
  });

  it('takes the front from the knees without toes, and names it when neither tells', () => {
    const { scene, bones } = buildHumanoid({ names: null, axes: '+y' });
    for (const side of ['left', 'right']) bones[`${side}Toes`].removeFromParent();
    scene.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, scene);
    expect(rig.humanoid.get('leftFoot')).toBe(bones.leftFoot);
    expect(rig.humanoid.get('rightUpperLeg')).toBe(bones.rightUpperLeg);
    expect(rig.humanoid.has('leftToes')).toBe(false);
    // Straight knees: the knee on the line from hip to ankle.
    for (const side of ['left', 'right']) {
      const knee = bones[`${side}LowerLeg`];
      const line = worldOf(bones[`${side}UpperLeg`]).lerp(worldOf(bones[`${side}Foot`]), 0.5);
      const foot = worldOf(bones[`${side}Foot`]);
      knee.position.copy(knee.parent.worldToLocal(line));
      knee.updateMatrixWorld(true);
      bones[`${side}Foot`].position.copy(knee.worldToLocal(foot));
      scene.updateMatrixWorld(true);
    }
    expect(() => new IKRig(ikpd, scene, { humanoid: 'structure' })).toThrow(/no front: the legs from the hips \(unnamed\) have no toes pointing forward and straight knees/);
  });

  it('finds unnamed bones by structure past the extra joints real rigs have', () => {
    const { scene, bones } = buildHumanoid({ names: null, axes: 'mixed', seed: 12 });
    const joint = (parent, offset) => {
      const bone = new Bone();
      const at = worldOf(parent).add(new Vector3(...offset));
      parent.add(bone);
      bone.position.copy(parent.worldToLocal(at));
      scene.updateMatrixWorld(true);
      return bone;
    };
    for (const side of ['left', 'right']) {
      const x = side === 'left' ? 1 : -1;
      // A CMU-style hip joint between the hips and the upper leg.
      const hipJoint = joint(bones.hips, [0.05 * x, -0.02, 0]);
      hipJoint.attach(bones[`${side}UpperLeg`]);
      joint(bones[`${side}Toes`], [0, 0, 0.06]);                 // a toe end
      joint(bones[`${side}UpperArm`], [0.02 * x, -0.1, 0]);      // a twist leaf
      for (const dz of [-0.02, 0.02]) joint(joint(bones[`${side}Hand`], [0, -0.08, dz]), [0, -0.03, 0]); // fingers
    }
    joint(bones.head, [0, 0.2, 0]); // a head end
    scene.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, scene);
    expect(rig.humanoid.convention).toBe('structure');
    for (const [role, bone] of Object.entries(bones)) {
      if (!role.endsWith('Eye')) expect(rig.humanoid.get(role), role).toBe(bone);
    }
    rig.dispose();
  });

  it('takes the hips above a pelvis joint the legs hang from (Character Creator style)', () => {
    const { scene, bones } = buildHumanoid({ names: null, axes: '+y' });
    const pelvis = new Bone();
    bones.hips.add(pelvis);
    pelvis.position.set(0, -0.03, 0);
    scene.updateMatrixWorld(true);
    pelvis.attach(bones.leftUpperLeg);
    pelvis.attach(bones.rightUpperLeg);
    scene.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, scene);
    expect(rig.humanoid.get('hips')).toBe(bones.hips);
    expect(rig.humanoid.get('spine')).toBe(bones.spine);
    expect(rig.humanoid.get('leftUpperLeg')).toBe(bones.leftUpperLeg);
    expect(rig.add('grounding', {}).bones.pelvis).toBe(bones.hips);
    rig.dispose();
  });

  it('finds no humanoid in the Fox, and says what is missing', async () => {
    const { skinned } = await loadCharacter('Fox');
    const rig = new IKRig(ikpd, skinned);
    expect(rig.humanoid.size).toBe(0);
    expect(rig.humanoid.convention).toBe(null);
    expect(rig.humanoid.reason).toMatch(/no spine: nothing rises from the hips 'b_Hip_01' to a head/);
    expect(() => rig.add('grounding', {})).toThrow(/no spine: nothing rises from the hips 'b_Hip_01'/);
    expect(() => rig.add('lookAt', { target: [0, 0, 1] })).toThrow(/bones: .*no spine/);
    expect(() => new IKRig(ikpd, skinned, { humanoid: 'structure' })).toThrow(RangeError);
    expect(() => new IKRig(ikpd, skinned, { humanoid: 'structure' })).toThrow(/humanoid 'structure': no spine/);
    // Its bones still work by name.
    rig.add('grounding', { legs: [['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021']], pelvis: 'b_Hip_01' });
    rig.dispose();
  });

  it('names what is missing: the legs, the arms', () => {
    const spineOnly = buildHumanoid({ names: null }).bones;
    for (const limb of ['leftUpperLeg', 'rightUpperLeg', 'leftShoulder', 'rightShoulder']) spineOnly[limb].removeFromParent();
    expect(resolveHumanoid('auto', [spineOnly.hips, ...collect(spineOnly.hips)]).reason).toMatch(/no hips: no joint has two legs going down to the ground/);
    const noArms = buildHumanoid({ names: null }).bones;
    for (const limb of ['leftShoulder', 'rightShoulder']) noArms[limb].removeFromParent();
    expect(() => resolveHumanoid('structure', [noArms.hips, ...collect(noArms.hips)])).toThrow(/humanoid 'structure': no left arm/);
  });
});

function collect(root) {
  const out = [];
  root.traverse((o) => { if (o !== root) out.push(o); });
  return out;
}

describe('rig.humanoid', () => {
  it('is read-only and says where the roles came from', () => {
    const { scene, bones } = buildHumanoid({ names: 'mixamo' });
    const rig = new IKRig(ikpd, scene);
    expect(rig.humanoid).toBeInstanceOf(Map);
    expect(() => rig.humanoid.set('head', bones.hips)).toThrow(TypeError);
    expect(() => rig.humanoid.delete('head')).toThrow(TypeError);
    expect(() => rig.humanoid.clear()).toThrow(TypeError);
    expect(rig.humanoid.get('head')).toBe(bones.head);
    expect(() => { rig.humanoid.convention = 'x'; }).toThrow(TypeError);
    expect(new IKRig(ikpd, scene, { humanoid: { ...bones } }).humanoid.convention).toBe('table');
    expect(new IKRig(ikpd, scene, { humanoid: { getRawBoneNode: (role) => bones[role] ?? null } }).humanoid.convention).toBe('VRMHumanoid');
    const none = new IKRig(ikpd, scene, { humanoid: 'none' }).humanoid;
    expect([none.size, none.convention]).toEqual([0, null]);
    expect(none.reason).toMatch(/'none'/);
  });
});

describe('humanoid bones outside the rig', () => {
  // A body and a face with a skeleton of its own (the head and eyes), as a VRM has.
  function bodyAndFace() {
    const body = buildHumanoid({ names: 'vroid' });
    const faceBones = [new Bone(), new Bone()];
    faceBones[0].name = 'J_Bip_C_Head';
    faceBones[1].name = 'J_Adj_L_FaceEye';
    faceBones[0].add(faceBones[1]);
    const face = new Group();
    face.add(faceBones[0]);
    const vrmHumanoid = { getRawBoneNode: (role) => body.bones[role] ?? null };
    return { body, face: new Skeleton(faceBones), vrmHumanoid };
  }

  it('a VRMHumanoid whose required bones are elsewhere fails at construction, naming the role and the bone', () => {
    const { face, vrmHumanoid } = bodyAndFace();
    expect(() => new IKRig(ikpd, face, { humanoid: vrmHumanoid })).toThrow(RangeError);
    expect(() => new IKRig(ikpd, face, { humanoid: vrmHumanoid })).toThrow(/humanoid: the humanoid's hips is the bone 'J_Bip_C_Hips', which is not a bone of this rig/);
  });

  it('a role given a bone elsewhere is left out; a constraint asking for it names it', () => {
    const { body } = bodyAndFace();
    const other = buildHumanoid({ names: 'vroid' });
    const table = { ...body.bones, leftHand: other.bones.leftHand, leftEye: other.bones.leftEye };
    const rig = new IKRig(ikpd, body.scene, { humanoid: table });
    expect(rig.bone('leftHand')).toBe(null);
    expect(rig.humanoid.has('leftHand')).toBe(false);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0, 1, 0] }))
      .toThrow(/bones\[2\]: the humanoid's leftHand is the bone 'J_Bip_L_Hand', which is not a bone of this rig/);
    // The eyes default to the rig's own: an eye elsewhere is left out, not a crash.
    const look = rig.add('lookAt', { target: [0, 1.6, 2] });
    expect(look.eyes).not.toContain(other.bones.leftEye);
    rig.update(1 / 60);
    rig.dispose();
  });
});

describe('default grounding legs', () => {
  it('a humanoid with one toe bone grounds both legs without toes', () => {
    const rename = (name, role) => (role === 'rightToes' ? 'Something' : name);
    const { scene, bones } = buildHumanoid({ names: 'bvh', rename });
    const rig = new IKRig(ikpd, scene);
    expect(rig.humanoid.has('leftToes')).toBe(true);
    expect(rig.humanoid.has('rightToes')).toBe(false);
    const grounding = rig.add('grounding', {});
    expect(grounding.bones.legs).toEqual([
      [bones.leftUpperLeg, bones.leftLowerLeg, bones.leftFoot],
      [bones.rightUpperLeg, bones.rightLowerLeg, bones.rightFoot],
    ]);
    rig.update(1 / 60);
    rig.dispose();
  });
});
