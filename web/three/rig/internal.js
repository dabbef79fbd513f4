// IKRig's internal interface (docs/architecture.md, "ikpd/three"): what
// ikpd/three's own files (the helpers, the kinds, grounding) use of a rig,
// so that none reads its private fields. A leaf module: ikRig.js registers
// each rig's interface here and the others look it up, with no import cycle.
const INTERNAL = /* @__PURE__ */ new WeakMap();

/** The internal interface of `rig` (an IKRig; see RigInternal in web/three/rig/ikRig.js). */
export function internalOf(rig) {
  return INTERNAL.get(rig);
}

/** Registers `internal` as `rig`'s interface (IKRig's constructor). */
export function registerInternal(rig, internal) {
  INTERNAL.set(rig, internal);
}
