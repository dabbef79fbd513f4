// IKRig's 'springs' constraint (docs/rig/springs.md): `chains` of bones
// (hair, tails, skirts; bones or names), an optional `center` bone (the space
// the motion is simulated in), `colliders` on bones, or all of them from a
// three-vrm `vrm` (springsVrm.js); no target.
import { describe } from '../../readers.js';
import { expandVrm } from './springsVrm.js';

const SHAPE = '[[root, ..., end], ...] (chains of bones: hair, tails, skirts)';

function springBones(rig, options) {
  const chains = options.chains;
  if (!Array.isArray(chains) || chains.length === 0) throw new TypeError(`chains: a 'springs' constraint needs chains: ${SHAPE} (or vrm: a three-vrm VRM), got ${describe(chains)}`);
  const colliders = options.colliders ?? [];
  if (!Array.isArray(colliders)) throw new TypeError(`colliders: expected an array of { joint, shape, offset, tail, radius }, got ${describe(colliders)}`);
  return {
    chains: chains.map((chain, i) => rig.resolveList(chain, `chains[${i}]`, 1, 256, SHAPE)),
    center: options.center === undefined || options.center === null ? null : rig.resolveBone(options.center, 'center'),
    colliders: colliders.map((c, i) => ({ ...c, joint: rig.resolveBone(c?.joint, `colliders[${i}].joint`) })),
  };
}

export const springs = Object.freeze({
  expand: expandVrm, // `vrm`: a three-vrm VRM's spring bones (springsVrm.js)
  bones: { min: 1, max: 256, shape: SHAPE },
  boneKeys: ['chains', 'center', 'colliders'],
  ownKeys: ['vrm'],
  resolve: (rig, options) => springBones(rig, options),
  joints: (c, ix) => ({
    chains: c.bones.chains.map((chain) => chain.map(ix)),
    center: c.bones.center === null ? null : ix(c.bones.center),
    colliders: c.bones.colliders.map((col) => ({ ...col, joint: ix(col.joint) })),
  }),
  targetless: true,
});
