// The rig's 'avatar' kind (docs/rig/avatar.md): a whole body from a head and
// two hand targets, optionally pelvis and foot trackers (rig.targets, six per
// avatar, as the C++ kind counts them) over `joints` [pelvis,
// spine (1 to 3), neck?, head], `arms` (0, 6 or 8: [shoulder?, upper arm,
// forearm, hand] left then right) and `legs` (0 or 6: [upper leg, lower leg,
// foot] left then right); its options are the described ones. With legs it
// has two ground legs (rig.probes, rig.grounds): where each foot lands.
import { avatar as layout } from '../described.js';
import { readIndices } from '../rigKinds.js';
import { SMOOTHED } from './shared.js';

export const avatar = Object.freeze({
  job: 'avatar',
  options: layout.options.map((f) => f.name),
  common: SMOOTHED,
  extras: ['arms', 'legs'],
  jointLists: (values) => [values.joints, values.arms, values.legs],
  // With legs, one ground leg per foot in rig.grounds/rig.probes (docs/rig/avatar.md, "Uneven ground").
  legCount: (values) => (values.legs.length > 0 ? 2 : 0),
  commonDefaults: () => ({ settleTime: 0.2 }),
  defaults: () => ({ arms: [], legs: [] }),
  mergeKey(key, value) {
    if (key === 'arms') return readIndices(value, key, { min: 0, max: 8 });
    if (key === 'legs') return readIndices(value, key, { min: 0, max: 6 });
    return undefined;
  },
});
