// Run by tests/js/pd/inertializerAlloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs): the Fox
// through ikpd/three's Inertializer with `feet: 'auto'`, one transition Walk → Run
// whose lock stays on (a half-life of 10⁶ s), then the probe's frames, whose
// bytes it counts. The Run clip's poses
// are sampled beforehand from a second Fox (three.js's AnimationMixer makes garbage
// of its own each update), and the Fox is carried back and forth so its feet go in
// and out of stance: the lock's weights, targets and IK all run.
import { init } from '../../web/index.js';
import { Inertializer } from '../../web/three/index.js';
import { loadCharacter } from './characters.js';
import { measureAllocation } from './alloc-probe.mjs';

const ikpd = await init({ rig: true });
const fox = await loadCharacter('Fox');
const source = await loadCharacter('Fox');
const dt = 1 / 60;
fox.mixer.clipAction(fox.clip('Walk')).play();
const inertia = new Inertializer(ikpd, fox.mixer, { halfLife: 0.1, feet: 'auto', stanceSpeed: 80 }); // the Fox is in centimetres
for (let i = 0; i < 30; i++) { fox.mixer.update(dt); inertia.update(dt); }
inertia.transition(fox.mixer.clipAction(fox.clip('Survey')), { halfLife: 1e6 });
// The lock's weights follow its PD at the settle time of a 0.1 s transition (not 10⁶ s's half).
inertia._feet.settleTime = 0.05;

// One second of Survey, every bone's locals per frame (the Inertializer's bone order).
const names = inertia.bones.map((b) => b.name);
const sourceBones = names.map((n) => source.scene.getObjectByName(n));
source.mixer.clipAction(source.clip('Survey')).play();
const POSES = 60;
const poses = new Float32Array(POSES * 7 * names.length);
for (let f = 0, o = 0; f < POSES; f++) {
  source.mixer.update(dt);
  for (const b of sourceBones) {
    b.position.toArray(poses, o);
    b.quaternion.toArray(poses, o + 3);
    o += 7;
  }
}
const bones = inertia.bones;
// The clock in an array: a double in a module-level `let` is boxed on each store
// (16 bytes a frame that would be the test's own).
const clock = new Float64Array(1);
let pose = 0, held = 0;
const weights = inertia._feet.weights;
function frame() {
  clock[0] += dt;
  pose = (pose + 1) % POSES;
  for (let j = 0, o = pose * 7 * bones.length; j < bones.length; j++, o += 7) {
    bones[j].position.set(poses[o], poses[o + 1], poses[o + 2]);
    bones[j].quaternion.set(poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
  }
  fox.scene.position.z = 50 * Math.sin(2 * clock[0]); // cm: up to 100 cm/s, past stanceSpeed in part of each sway
  inertia.update(dt);
  for (let i = 0; i < weights.length; i++) if (weights[i] > 0.5) { held++; break; }
}
let frames = 0;
measureAllocation('inertializer feet', () => { frames++; frame(); });
console.log(`held ${held} of ${frames}`);
inertia.dispose();
