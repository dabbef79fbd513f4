// A glTF character walking a path with its own clip (played in place): the
// root moves forward at the speed its stance feet move back (demo/lib/clipGait.js),
// its height follows the ground under it through a PD, and its IKRig (built
// by the caller, grounding first) runs after the mixer. Measures what
// docs/rig/grounding.md claims, as the grounding scene does, for each stance
// foot (from a quarter of the stance on): the sole error, how far its sole is
// from its target (the ground under it plus the clearance the clip gives it
// above the authored floor), and how far it slides. Nothing in `update`
// allocates.
import * as THREE from 'three/webgpu';
import { analyseClip, inStance } from './clipGait.js';

const HISTORY = 1024; // frames kept for the medians the tests read
const _v = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _up = new THREE.Vector3(0, 1, 0);

/**
 * @param {object} o
 * @param {object} o.ikpd the library (for its PD)
 * @param {import('three').Object3D} o.root the model's root (the object the walk moves), at the origin, at rest
 * @param {import('three').AnimationClip[]} o.clips
 * @param {object} o.rig its IKRig; `o.grounding` its grounding constraint
 * @param {import('three').Object3D[]} o.feet the legs' effectors (toes or paws), in the grounding's leg order
 * @param {(s: number, out: object) => object} o.path arc length → { x, z, heading }
 * @param {(x: number, z: number) => number} o.heightAt the ground height under the root
 * @param {(x: number, z: number) => number} [o.groundHeight] the height of the ground the grounding stands on (default heightAt)
 */
export function createWalker({ ikpd, root, clips, rig, grounding, feet, path, heightAt, groundHeight = heightAt }) {
  // Sole offsets: the effectors' rest heights above the authored ground (world units), as the grounding takes them.
  root.updateMatrixWorld(true);
  const soles = feet.map((foot) => foot.getWorldPosition(_v).y - root.position.y);
  const mixer = new THREE.AnimationMixer(root);
  const gaits = new Map(clips.map((clip) => [clip.name, analyseClip(root, mixer, clip, feet)]));
  const animated = feet.map(() => new THREE.Quaternion());
  const lift = new Float64Array(feet.length); // the animated sole's height above the authored floor
  const measured = feet.map(() => ({ stance: false, start: new THREE.Vector3(), error: 0, slide: 0 }));
  const sole = new THREE.Vector3();
  const heightPd = new ikpd.PD({ settleTime: 0.25, value: heightAt(0, 0) });
  const at = { x: 0, z: 0, heading: 0 };
  const history = { error: new Float32Array(HISTORY), slide: new Float32Array(HISTORY), count: 0 };
  const walker = {
    root, rig, grounding, mixer, soles,
    clip: null, action: null, gait: null,
    /** Speed multiplier: the clip's rate and the root's speed together. */
    speedScale: 1,
    s: 0,
    soleError: 0, slide: 0, frames: 0,
    /** Plays the clip named `name` (its gait, measured at load, gives the speed). */
    setClip(name) {
      const clip = clips.find((c) => c.name === name) ?? clips[0];
      walker.action?.stop();
      walker.clip = clip;
      walker.gait = gaits.get(clip.name);
      walker.action = mixer.clipAction(clip).reset().play();
      for (const m of measured) m.stance = false;
      history.count = 0;
    },
    /** The walking speed in world units per second (0 for a clip that does not walk). */
    get speed() { return walker.gait.speed * walker.speedScale; },
    update(dt) {
      walker.s += walker.speed * dt;
      mixer.update(dt * walker.speedScale);
      path(walker.s, at);
      root.position.set(at.x, heightPd.update(dt, heightAt(at.x, at.z)), at.z);
      root.rotation.set(0, at.heading, 0);
      root.updateMatrixWorld(true);
      for (let i = 0; i < feet.length; i++) {
        feet[i].getWorldQuaternion(animated[i]);
        lift[i] = feet[i].getWorldPosition(_v).y - soles[i] - root.position.y;
      }
      rig.update(dt);
      root.updateMatrixWorld(true);
      measure();
    },
    /** Medians and maxima over the frames with a foot in stance since the clip was set (up to the last HISTORY). */
    summary() {
      const n = Math.min(history.count, HISTORY);
      const stat = (a) => {
        const v = Array.from(a.subarray(0, n)).sort((x, y) => x - y);
        return { median: n ? v[n >> 1] : 0, max: n ? v[n - 1] : 0 };
      };
      return { frames: n, soleError: stat(history.error), slide: stat(history.slide) };
    },
    feet: measured,
    dispose() {
      mixer.stopAllAction();
      mixer.uncacheRoot(root);
      heightPd.dispose();
      rig.dispose();
    },
  };

  // A foot's sole point: its effector less the sole offset along the up the grounding turned it to.
  function solePoint(i) {
    feet[i].getWorldQuaternion(_q).multiply(animated[i].invert());
    animated[i].invert();
    return sole.copy(feet[i].getWorldPosition(_v)).addScaledVector(_v.copy(_up).applyQuaternion(_q), -soles[i]);
  }

  function measure() {
    const t = walker.action.time;
    let worst = 0, slide = 0, any = false;
    for (let i = 0; i < feet.length; i++) {
      const m = measured[i];
      const stance = inStance(walker.gait, i, t, true);
      solePoint(i);
      if (stance && !m.stance) m.start.copy(sole);
      m.stance = stance;
      any ||= stance;
      m.error = stance ? Math.abs(sole.y - groundHeight(sole.x, sole.z) - lift[i]) : 0;
      m.slide = stance ? Math.hypot(sole.x - m.start.x, sole.z - m.start.z) : 0;
      worst = Math.max(worst, m.error);
      slide = Math.max(slide, m.slide);
    }
    walker.soleError = worst;
    walker.slide = slide;
    walker.frames++;
    if (!any) return;
    const k = history.count++ % HISTORY;
    history.error[k] = worst;
    history.slide[k] = slide;
  }

  walker.setClip(clips[0].name);
  return walker;
}
