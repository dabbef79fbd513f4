// The rig's constraint kinds, one file each (docs/architecture.md, "Adding a
// constraint kind"), in the order of the core's kind index
// (cpp/bindings/rig/rig.cc). Each kind is plain data and hooks:
//   job, options, common, extras   the job description it reuses, which of its
//                                  options the rig takes, the common keys, its own keys
//   takesJoints (true)             whether it takes `joints`
//   required                       [key, message] pairs add() needs
//   errorNames                     the core's names of its joints → this API's
//   inForce(values, f)             derived defaults (null) as the core's numbers in force
//   joints(values), legCount(values), jointLists(values)
//   commonDefaults(job), defaults(job)  defaults beyond the common block's and the job's
//   settleTimePositive             settleTime must be > 0
//   mergeKey(key, value, current, defaults)  its own keys read (undefined: not its own)
//   packJob(values, job, f, o), packExtras(values, f, o, job) → offset after
//   tooMany                        the error when a constraint outgrows the scratch
import { aim } from './aim.js';
import { twoBone } from './twoBone.js';
import { pseudoThreeBone } from './pseudoThreeBone.js';
import { chain } from './chain.js';
import { lookAt } from './lookAt.js';
import { bodyLookAt } from './bodyLookAt.js';
import { grounding } from './grounding.js';
import { twist } from './twist.js';
import { avatar } from './avatar.js';
import { springs } from './springs.js';

export const KIND_TABLE = Object.freeze({ aim, twoBone, pseudoThreeBone, chain, lookAt, bodyLookAt, grounding, twist, avatar, springs });
export const KINDS = Object.freeze(Object.keys(KIND_TABLE));
export const KIND_INDEX = Object.freeze(Object.fromEntries(KINDS.map((k, i) => [k, i])));

/** Every option name a kind takes. */
export function kindOptions(kind) {
  const k = KIND_TABLE[kind];
  return [...(k.takesJoints === false ? [] : ['joints']), ...k.common, ...k.options, ...k.extras];
}
