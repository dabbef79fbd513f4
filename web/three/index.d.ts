// ikpd/three — typings. Helpers that apply ikpd solvers to three.js Bone/Object3D
// hierarchies, whatever the rig's bone axis convention; each file's typings sit
// next to it (web/three/ik/, web/three/rig/), re-exported here.
export * from './common.js';
export * from './rig/rigHelper.js';
export * from './ik/aim.js';
export * from './ik/limb.js';
export * from './ik/twoBone.js';
export * from './ik/pseudoThreeBone.js';
export * from './ik/chain.js';
export * from './rig/lookAt.js';
export * from './rig/bodyLookAt.js';
export * from './rig/avatarIK.js';
export * from './rig/ikRig.js';
export * from './rig/grounding.js';
export * from './pd/inertializer.js';
