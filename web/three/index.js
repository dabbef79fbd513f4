// ikpd/three — helpers that apply ikpd solvers to three.js objects (three is a peer dependency;
// only `three` is imported here: the HDR output nodes, which need `three/tsl`, are `ikpd/three/hdr`).
// Each helper takes the loaded library (`await init()` from 'ikpd'), the bones
// and an options object; call update() every frame after the animation mixer.
export { AimIK } from './ik/aim.js';
export { TwoBoneIK } from './ik/twoBone.js';
export { PseudoThreeBoneIK } from './ik/pseudoThreeBone.js';
export { detectBoneAxis } from './readers.js';
export { ChainIK } from './ik/chain.js';
export { LookAtIK } from './rig/lookAt.js';
export { AvatarIK } from './rig/avatarIK.js';
export { BodyLookAtIK, BODY_LOOK_AT_PRESETS, resolveBodyBones } from './rig/bodyLookAt.js';
export { IKRig } from './rig/ikRig.js';
export { IKConstraint } from './rig/ikConstraint.js';
export { Inertializer } from './pd/inertializer.js';
export { HUMANOID_ROLES, HUMANOID_TABLES } from './rig/humanoid.js';
