// An inertialized transition's frame (docs/pd/inertializer.md, "three.js"): the Fox
// switching Walk → Run → Survey every 0.25 s through ikpd/three's Inertializer, per
// frame, next to mixer.update alone on the same character. Not shipped; bench/run.mjs only.
import { AnimationClip, AnimationMixer, Quaternion, QuaternionKeyframeTrack, Vector3 } from 'three';
import { Inertializer } from '../../web/three/index.js';
import { loadCharacter } from '../../tests/support/characters.js';
import { buildHumanoid } from '../../tests/support/three-humanoid.js';

/** ns per frame on the Fox: `mixer` (mixer.update), `frame` (mixer.update + Inertializer.update, a transition every 15 frames), `update` (the same, never switching), `feetFrame` (`frame` with `feet: 'auto'`), `bones`. */
export async function benchTransitions(ikpd, measure) {
  const c = await loadCharacter('Fox');
  const actions = ['Walk', 'Run', 'Survey'].map((name) => c.mixer.clipAction(c.clip(name)));
  actions[0].play();
  const dt = 1 / 60;
  const out = { mixer: measure(() => c.mixer.update(dt), 1) };
  const inertia = new Inertializer(ikpd, c.mixer, { halfLife: 0.1 });
  let frame = 0;
  out.frame = measure(() => {
    if (++frame % 15 === 0) inertia.transition(actions[(frame / 15) % 3]);
    c.mixer.update(dt);
    inertia.update(dt);
  }, 1);
  // The same without switching: the offset's decay alone.
  out.update = measure(() => {
    c.mixer.update(dt);
    inertia.update(dt);
  }, 1);
  out.bones = inertia.bones.length;
  inertia.dispose();
  // With `feet: 'auto'` (docs/pd/inertializer.md, "Stance feet"): the same switching frame, the Fox carried
  // along +Z at 1 m/s (stance is read in the world), its four legs' lock and two-bone IK after the inertializer.
  const held = new Inertializer(ikpd, c.mixer, { halfLife: 0.1, feet: 'auto', stanceSpeed: 80 });
  frame = 0;
  out.feetFrame = measure(() => {
    if (++frame % 15 === 0) held.transition(actions[(frame / 15) % 3]);
    c.scene.position.z = (c.scene.position.z + 100 * dt) % 1e4;
    c.mixer.update(dt);
    held.update(dt);
  }, 1);
  held.dispose();
  return out;
}

// A clip on the humanoid: the legs, arms and spine swinging about X at `rate` Hz by
// `amount` rad from their rest rotations (30 keys a second, one cycle).
function swingClip(name, bones, rate, amount) {
  const swing = { leftUpperLeg: 1, rightUpperLeg: -1, leftLowerLeg: 0.6, rightLowerLeg: -0.6, leftUpperArm: -0.8, rightUpperArm: 0.8, spine: 0.1, neck: 0.1 };
  const period = 1 / rate, keys = 31, q = new Quaternion(), x = new Vector3(1, 0, 0);
  const times = Array.from({ length: keys }, (_, i) => (i * period) / (keys - 1));
  const tracks = Object.entries(swing).map(([role, k]) => {
    const values = [];
    for (const t of times) values.push(...q.setFromAxisAngle(x, k * amount * Math.sin(2 * Math.PI * rate * t)).premultiply(bones[role].quaternion).toArray());
    return new QuaternionKeyframeTrack(`${bones[role].name}.quaternion`, times, values);
  });
  return new AnimationClip(name, period, tracks);
}

/** ns per frame on the built-in humanoid (three clips: idle, walk, run swings), as benchTransitions on the Fox. */
export function benchTransitionsHumanoid(ikpd, measure) {
  const { scene, bones } = buildHumanoid({ axes: 'mixed' });
  const clips = [swingClip('Idle', bones, 0.3, 0.05), swingClip('Walk', bones, 1, 0.5), swingClip('Run', bones, 1.5, 0.9)];
  const mixer = new AnimationMixer(scene);
  const actions = clips.map((clip) => mixer.clipAction(clip));
  actions[1].play();
  const dt = 1 / 60;
  const out = { mixer: measure(() => mixer.update(dt), 1) };
  const inertia = new Inertializer(ikpd, mixer, { halfLife: 0.1 });
  let frame = 0;
  out.frame = measure(() => {
    if (++frame % 15 === 0) inertia.transition(actions[(frame / 15) % 3]);
    mixer.update(dt);
    inertia.update(dt);
  }, 1);
  out.bones = inertia.bones.length;
  inertia.dispose();
  return out;
}
