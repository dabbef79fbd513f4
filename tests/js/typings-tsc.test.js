// The typings compile for a TypeScript user (`tsc --strict`, tests/types/usage.ts):
// three.js vectors and quaternions, tuples and Float32Array/Float64Array are
// accepted; `[0, 1]` as a vector and a Promise as the module are rejected.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('tests/types/usage.ts type-checks under tsc --strict', () => {
  let output = '';
  try {
    execFileSync(`${root}node_modules/.bin/tsc`, ['-p', 'tests/types'], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    output = `${error.stdout}${error.stderr}`;
  }
  expect(output).toBe('');
}, 60_000);
