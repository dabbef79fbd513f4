// IKRig's constraint kinds, one file each (docs/architecture.md, "Adding a
// constraint kind"), the same kinds as web/src/rig/kinds/. Each is plain data
// and hooks:
//   bones { min, max, shape }   how many bones, and their shape in errors
//   boneKeys, ownKeys           the options naming its bones; its three.js-only options
//   humanoid                    the humanoid roles used when no bones are given
//   eyes, head(bones)           it turns eye bones below this head
//   resolve(rig, options)       its bones (rig: IKRig's internal interface, ikRig.js)
//   expand(options)             a shorthand for its options ({ options, more, added }: springs' vrm;
//                               `more`: further option sets, each a constraint after the first)
//   joints(c, ix)               the core's joint options (ix: bone → joint index)
//   attach(constraint, options) its three.js parts, at add(): own properties through sharedProperty
//                               (web/three/readers.js), so constraints of a kind share one hidden class
//   checkOwn(key, value, c)     checks one of its ownKeys for constraint.set() (which then assigns it)
//   targetless, derived, grounds  runs without a target; derived settings read back; queries the ground each frame
//   built(rig, c)               after each (re)build of the core rig
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
