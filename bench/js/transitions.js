// An inertialized transition's frame (docs/pd/inertializer.md, "three.js"): the Fox
// switching Walk → Run → Survey every 0.25 s through ikpd/three's Inertializer, per
// frame, next to mixer.update alone on the same character. Not shipped; bench/run.mjs only.
import { Inertializer } from '../../web/three/index.js';
import { loadCharacter } from '../../tests/support/characters.js';

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
