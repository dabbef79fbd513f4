// The built-in humanoid's joints: role, parent role and rest position in the
// humanoid's space (metres, Y up, facing +Z, left at +X), the left side
// mirrored to the right. Pure data, shared by the demo's humanoid
// (demo/lib/humanoid.js) and the tests' rigs (tests/support/three-humanoid.js).

/**
 * `[role, parentRole | null, [x, y, z]]` per joint, parents first. With
 * `eyes`, an eye joint under the head on each side.
 */
export function humanoidLayout({ eyes = false } = {}) {
  const layout = [
    ['hips', null, [0, 0.98, 0]],
    ['spine', 'hips', [0, 1.08, 0]],
    ['chest', 'spine', [0, 1.2, 0]],
    ['upperChest', 'chest', [0, 1.33, 0]],
    ['neck', 'upperChest', [0, 1.48, 0]],
    ['head', 'neck', [0, 1.58, 0.01]],
    ...(eyes ? [['leftEye', 'head', [0.032, 1.66, 0.08]]] : []),
    ['leftShoulder', 'upperChest', [0.05, 1.43, 0]],
    ['leftUpperArm', 'leftShoulder', [0.18, 1.42, 0]],
    ['leftLowerArm', 'leftUpperArm', [0.21, 1.15, -0.02]],
    ['leftHand', 'leftLowerArm', [0.23, 0.91, 0.02]],
    ['leftUpperLeg', 'hips', [0.095, 0.93, 0]],
    ['leftLowerLeg', 'leftUpperLeg', [0.1, 0.5, 0.03]],
    ['leftFoot', 'leftLowerLeg', [0.105, 0.08, -0.01]],
    ['leftToes', 'leftFoot', [0.11, 0.02, 0.13]],
  ];
  for (const [role, parent, [x, y, z]] of layout.slice()) {
    if (role.startsWith('left')) layout.push([role.replace('left', 'right'), parent.replace('left', 'right'), [-x, y, z]]);
  }
  return layout;
}
