// Vitest setup: property tests use one fixed fast-check seed, so `npm test`
// and CI are deterministic (a failure reproduces on every run). Set
// IKPD_FC_SEED=random (or a number) to explore other inputs locally.
import fc from 'fast-check';

const requested = process.env.IKPD_FC_SEED;
const seed = requested === 'random' ? Date.now() ^ (Math.random() * 2 ** 31) : Number(requested ?? 20261121);
fc.configureGlobal({ seed });
if (requested) console.log(`fast-check seed: ${seed}`);
