// Every described job's packed layout, by name (twoBone, aim, pseudoThreeBone,
// chain, tentacle2d, lookAt, bodyLookAt, pd): the layouts written at build
// time from the C++ descriptions into web/src/<area>/described.js.
import * as ik from './ik/described.js';
import * as rig from './rig/described.js';
import * as pd from './pd/described.js';

export const JOBS = /* @__PURE__ */ Object.freeze({ ...ik, ...rig, ...pd });
