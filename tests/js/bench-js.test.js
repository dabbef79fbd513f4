// The pure-JS solvers of the benchmark (bench/js/ik.js) must compute what the
// WASM batches compute, or the benchmark's JS column times something else.
// Doubles vs float32: ≤ 1e-5 on well-conditioned items; the few ill-conditioned
// ones (see bench/js/agreement.mjs) only to float32's amplified rounding.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';
import { aimDifferences, twoBoneDifferences } from '../../bench/js/agreement.mjs';

function expectAgreement({ max, illMax, illItems }, n) {
  for (const [field, d] of Object.entries(max)) expect(d, field).toBeLessThanOrEqual(1e-5);
  for (const [field, d] of Object.entries(illMax)) expect(d, `${field} (ill-conditioned items)`).toBeLessThanOrEqual(1e-4);
  expect(illItems.length).toBeLessThan(0.05 * n);
  if ('reached' in max) expect(Math.max(max.reached, illMax.reached)).toBe(0);
}

describe('benchmark pure-JS solvers', () => {
  it('solveTwoBoneJS matches TwoBoneBatch on the benchmark problems', () => {
    expectAgreement(twoBoneDifferences(ikpd, 1024), 1024);
  });

  it('solveAimJS matches AimBatch on the benchmark problems', () => {
    expectAgreement(aimDifferences(ikpd, 1024), 1024);
  });
});
