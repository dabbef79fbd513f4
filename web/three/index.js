// ikpd/three — helpers that apply ikpd solvers to three.js objects (three is a peer dependency;
// only `three` is imported here: the HDR output nodes, which need `three/tsl`, are `ikpd/three/hdr`).
// Each helper takes the loaded library (`await init()` from 'ikpd'), the bones
// and an options object; call update() every frame after the animation mixer.
export { AimIK } from './aim.js';
export { TwoBoneIK } from './twoBone.js';
export { PseudoThreeBoneIK } from './pseudoThreeBone.js';
export { BoneChain, detectBoneAxis } from './rig.js';
export { ChainIK } from './chain.js';
export { LookAtIK } from './lookAt.js';
export { BodyLookAtIK, BODY_LOOK_AT_PRESETS, resolveBodyBones } from './bodyLookAt.js';
export { IKRig } from './ikRig.js';
export { IKConstraint } from './ikConstraint.js';
export { HUMANOID_ROLES, HUMANOID_TABLES } from './humanoid.js';
