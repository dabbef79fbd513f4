// A minimal grounding skeleton for the core Rig tests: 0 body, 1 pelvis,
// 2 chest; each leg hip, knee, ankle, toe (metres, +Y up, facing +Z), as
// parents, packed rest locals (10 floats a joint) and the legs' joints.
import { sub } from './ik-math.js';

const F = 10;

export function biped() {
  const parents = [-1, 0, 1];
  const positions = [[0, 0, 0], [0, 1, 0], [0, 1.3, 0]];
  const legs = [];
  for (const s of [1, -1]) {
    const first = parents.length;
    parents.push(1, first, first + 1, first + 2);
    positions.push([0.1 * s, 0.95, 0], [0.1 * s, 0.53, 0.04], [0.1 * s, 0.1, 0], [0.1 * s, 0.03, 0.13]);
    legs.push([first, first + 1, first + 2, first + 3]);
  }
  const rest = new Float32Array(F * parents.length);
  parents.forEach((p, j) => {
    const t = p < 0 ? positions[j] : sub(positions[j], positions[p]);
    rest.set([...t, 0, 0, 0, 1, 1, 1, 1], F * j);
  });
  return { parents, rest, legs };
}
