// The three.js Inertializer's `feet` option (docs/pd/inertializer.md, "Stance feet"):
// during a transition, each foot in stance in the new clip is held where a cut puts it,
// by an IKRig two-bone constraint per leg on the inertialized pose; the lock weight per
// foot follows the exact PD toward 1 (stance) or 0 (swing, or the transition decayed).
import { Matrix4, Quaternion, Vector3 } from 'three';
import { IKRig } from '../rig/ikRig.js';
import { internalOf } from '../rig/internal.js';
import { describe } from '../readers.js';

const JOINT_FLOATS = 7;
// The lock weight's PD settles in this share of the transition's half-life (critically damped:
// 1.4 % left then), so a stance foot is within 1 % of the offset from half a half-life on.
const SETTLE_SHARE = 0.5;
// The lock fades out once the transition is this many half-lives old (the offset then 1 %).
const LOCK_HALF_LIVES = 4;
// Below this a released weight is 0: the constraint is switched off, the bones are the inertialized pose.
const WEIGHT_EPSILON = 1e-5;
const HUMANOID_LEGS = [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']];

const _m = /* @__PURE__ */ new Matrix4();
const _joint = /* @__PURE__ */ new Matrix4();
const _p = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _qi = /* @__PURE__ */ new Quaternion();

/** Reads the `stanceSpeed` option (world units per second, > 0). */
export function readStanceSpeed(value) {
  if (typeof value !== 'number') throw new TypeError(`stanceSpeed: expected a number (world units per second), got ${describe(value)}`);
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`stanceSpeed: must be a finite number > 0 (world units per second), got ${value}`);
  return value;
}

/**
 * The legs for `feet: 'auto'`: a humanoid's by bone names (IKRig's tables: upper leg, lower leg,
 * foot), and the skeleton's: every chain of at least three bones without branches that ends in a
 * bone without bone children near the lowest such end (within a quarter of the skeleton's height above it),
 * from the bone below its last branch down, its first three bones (a quadruped's front legs; its
 * hind legs too when no names give them), unless it holds a bone of a leg found by name.
 * `bones`: the Inertializer's; heights along up in the rest pose (a skinned mesh's bind pose, else the pose now).
 */
function autoLegs(rig, internal, bones) {
  const named = rig.humanoid.size > 0 && rig.humanoid.convention !== 'structure' && HUMANOID_LEGS.every((leg) => leg.every((r) => rig.humanoid.has(r)))
    ? HUMANOID_LEGS.map((leg) => leg.map((r) => rig.humanoid.get(r))) : [];
  const taken = new Set(named.flat());
  const set = new Set(bones);
  const children = (b) => b.children.filter((c) => set.has(c));
  const heights = bones.map((b) => internal.restModelPosition(b, _p).dot(internal.up));
  const leaves = bones.filter((b) => children(b).length === 0);
  const low = Math.min(...leaves.map((b) => heights[bones.indexOf(b)])), high = Math.max(...heights);
  const ends = leaves.filter((b) => heights[bones.indexOf(b)] <= low + 0.25 * (high - low));
  const legs = [...named];
  for (const end of ends) {
    const chain = [end];
    for (let o = end.parent; set.has(o) && children(o).length === 1 && set.has(o.parent); o = o.parent) chain.unshift(o);
    if (chain.length >= 3 && !chain.some((b) => taken.has(b))) legs.push(chain.slice(0, 3));
  }
  if (legs.length === 0) throw new RangeError("feet: 'auto' found no legs (no humanoid leg names, and no chain of 3 bones ending near the lowest bone); pass feet: [[upper, lower, foot], …]");
  return legs;
}

/**
 * The stance-feet lock of one Inertializer: an IKRig over its root with a 'twoBone' per leg
 * (settleTime 0: the weight is this lock's PD, applied as given), and per leg the FK of the
 * new clip's pose (`input`) to the foot.
 */
export class FeetLock {
  /**
   * @param ikpd the loaded library; root the animated root; bones the Inertializer's bones;
   * feet 'auto' or [[upper, lower, foot], …]; stanceSpeed world units per second.
   */
  constructor(ikpd, root, bones, feet, stanceSpeed) {
    this.rig = new IKRig(ikpd, root, { humanoid: feet === 'auto' ? 'auto' : 'none' });
    let legs;
    try {
      const internal = internalOf(this.rig);
      if (feet === 'auto') legs = autoLegs(this.rig, internal, bones);
      else {
        if (!Array.isArray(feet) || feet.length === 0) throw new TypeError(`feet: expected 'auto', null or [[upper, lower, foot], …], got ${describe(feet)}`);
        legs = feet.map((leg, i) => internal.resolveList(leg, `feet[${i}]`, 3, 3, '[upper, lower, foot]'));
      }
      const index = new Map(bones.map((b, i) => [b, i]));
      for (const [i, leg] of legs.entries()) {
        for (const [k, b] of leg.entries()) if (!index.has(b)) throw new RangeError(`feet[${i}][${k}]: '${b.name}' is not a bone the Inertializer animates`);
      }
      this.bones = bones;
      this.stanceSpeed = stanceSpeed;
      this.targets = legs.map(() => new Vector3());
      this.constraints = legs.map((leg, i) => this.rig.add('twoBone', { bones: leg, target: this.targets[i], endRotation: 'world', settleTime: 0 }));
      this.legs = legs.map((leg) => {
        const foot = leg[2];
        const chain = []; // the joints from the top bone down to the foot, then to the leg's end (indices into bones)
        for (let o = foot; index.has(o); o = o.parent) chain.unshift(index.get(o));
        const footAt = chain.length - 1;
        for (let o = foot.children.find((b) => index.has(b)); o; o = o.children.find((b) => index.has(b))) chain.push(index.get(o));
        const below = []; // the foot's descendants among the bones (toes, a paw): they take the cut's locals
        foot.traverse((o) => { if (o !== foot && index.has(o)) below.push(index.get(o)); });
        return { foot, chain, footAt, below, top: bones[chain[0]].parent };
      });
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.cut = legs.map(() => ({ position: new Vector3(), rotation: new Quaternion(), contact: new Vector3() }));
    this.stance = new Uint8Array(legs.length); // whether each foot is in stance in the new clip
    this.last = new Float64Array(3 * legs.length); // each leg end's place one update earlier (world)
    this.seen = new Uint8Array(legs.length); // whether it has one
    this.weights = new Float64Array(legs.length);
    this.values = new Float64Array(legs.length); // each lock weight's PD: its value (weights: clamped to [0, 1])
    this.rates = new Float64Array(legs.length); // and its rate (1/s)
    this.settleTime = 0.05;
    this.clock = new Float64Array(1); // seconds since the last transition
    this.halfLife = 0; // the last transition's; 0: none (a cut)
  }

  // The cut's world place of each foot, and of the end of its leg (the contact), from the new clip's pose `f`.
  _cutFeet(f) {
    for (let i = 0; i < this.legs.length; i++) {
      const leg = this.legs[i], chain = leg.chain, footAt = leg.footAt, top = leg.top;
      if (top) { top.updateWorldMatrix(true, false); _m.copy(top.matrixWorld); } else _m.identity();
      for (let k = 0; k < chain.length; k++) {
        const o = JOINT_FLOATS * chain[k];
        _joint.compose(_p.set(f[o], f[o + 1], f[o + 2]), _q.set(f[o + 3], f[o + 4], f[o + 5], f[o + 6]), this.bones[chain[k]].scale);
        _m.multiply(_joint);
        if (k === footAt) _m.decompose(this.cut[i].position, this.cut[i].rotation, _s);
      }
      this.cut[i].contact.setFromMatrixPosition(_m);
    }
  }

  /** At a transition: the new clip's feet now (their speed is measured from here), and the lock's time scale. */
  transition(input, halfLife) {
    this.halfLife = halfLife;
    this.clock[0] = 0;
    this._cutFeet(input);
    this.cut.forEach((c, i) => { c.contact.toArray(this.last, 3 * i); this.seen[i] = 1; });
    if (halfLife > 0) this.settleTime = SETTLE_SHARE * halfLife; // each weight and its rate go on
  }

  /**
   * After the Inertializer wrote `output` into the bones: the lock weights one step on, and the
   * stance feet moved toward the cut's place by them. Returns true when it changed bones.
   */
  update(dt, input, bones) {
    this._cutFeet(input);
    this.clock[0] += dt; // (the core's `elapsed` would come back boxed: garbage every frame)
    if (!this._weigh(dt)) return false; // every weight 0: the bones stay the inertialized pose, bit for bit
    this._hold(input, bones);
    this.rig.update(dt);
    return true;
  }

  // Stage 1: each foot's stance in the new clip and its lock weight one step on; true when any is > 0.
  _weigh(dt) {
    const active = this.halfLife > 0 && this.clock[0] < LOCK_HALF_LIVES * this.halfLife;
    let any = false;
    for (let i = 0; i < this.legs.length; i++) {
      // The leg end's step against stanceSpeed·dt, in plain arithmetic and typed arrays
      // (no number boxed: nothing allocated per frame).
      const last = this.last, o = 3 * i, p = this.cut[i].contact;
      const dx = p.x - last[o], dy = p.y - last[o + 1], dz = p.z - last[o + 2];
      const moved = dt > 0 && this.seen[i] !== 0;
      const step = Math.sqrt(dx * dx + dy * dy + dz * dz), limit = this.stanceSpeed * dt;
      if (dt > 0) { last[o] = p.x; last[o + 1] = p.y; last[o + 2] = p.z; this.seen[i] = 1; }
      // Stance from slower than stanceSpeed until faster than twice it (a foot near the threshold does not flicker).
      const stance = active && moved && (step < limit || (this.stance[i] !== 0 && step < 2 * limit));
      this.stance[i] = stance ? 1 : 0;
      const goal = stance ? 1 : 0;
      // The exact critically damped step toward `goal` held over dt (docs/pd/pd.md, "Closed form";
      // kp = (2π/settleTime)²): the same weights at any frame rate. Inline: a number returned from a
      // call would be boxed, garbage every frame.
      const omega = (2 * Math.PI) / this.settleTime, e = this.values[i] - goal, v = this.rates[i];
      const decay = Math.exp(-omega * dt), k = (v + omega * e) * dt;
      let w = goal + (e + k) * decay;
      this.rates[i] = (v - omega * k) * decay;
      if (goal === 0 && w < WEIGHT_EPSILON) { w = 0; this.rates[i] = 0; }
      this.values[i] = w;
      this.weights[i] = w < 0 ? 0 : w > 1 ? 1 : w;
      if (w > 0) any = true;
    }
    return any;
  }

  // Stage 2: each foot's target, rotation and toes toward the cut's by its weight (the two-bone then solves).
  _hold(input, bones) {
    for (let i = 0; i < this.legs.length; i++) {
      const w = this.weights[i];
      const leg = this.legs[i], foot = leg.foot, below = leg.below;
      foot.updateWorldMatrix(true, false);
      if (w === 0) { // a swing foot: its two-bone reaches where it is (the constraints stay on: a toggle packs settings)
        this.targets[i].setFromMatrixPosition(foot.matrixWorld);
        continue;
      }
      const c = this.cut[i];
      // The toes below the foot: their locals toward the cut's.
      for (let n = 0; n < below.length; n++) {
        const j = below[n], o = JOINT_FLOATS * j, b = bones[j];
        b.position.lerp(_p.set(input[o], input[o + 1], input[o + 2]), w);
        b.quaternion.slerp(_q.set(input[o + 3], input[o + 4], input[o + 5], input[o + 6]), w);
      }
      // The foot's world rotation toward the cut's (the two-bone keeps it: endRotation 'world').
      foot.matrixWorld.decompose(_p, _q, _s);
      _q.slerp(c.rotation, w);
      foot.parent.matrixWorld.decompose(_s, _qi, _s);
      foot.quaternion.copy(_qi.invert().multiply(_q));
      // The foot's place toward the cut's.
      this.targets[i].copy(_p).lerp(c.position, w);
    }
  }

  /** Frees the rig's and the PDs' WASM memory. */
  dispose() {
    this.rig?.dispose();
  }
}
