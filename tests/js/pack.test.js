// The published package works: `npm pack`, install the tarball into a fresh
// project (offline), import `ikpd` from plain Node and solve a two-bone pose.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'ikpd-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' },
});

it('installs from the packed tarball and solves a two-bone pose from plain Node', () => {
  expect(existsSync(join(root, 'web/lib/ikpd.mjs'))).toBe(true); // built by `npm test` before Vitest
  // --ignore-scripts: the WASM is already built; prepack would rebuild it concurrently with other tests.
  const [{ filename, files }] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root));
  const paths = files.map((f) => f.path);
  expect(paths).toEqual(expect.arrayContaining(['web/index.js', 'web/index.d.ts', 'web/lib/ikpd.mjs', 'web/src/ik.js', 'web/types/ik.d.ts']));
  expect(paths.some((p) => p.startsWith('cpp/') || p.startsWith('tests/') || p.startsWith('build/'))).toBe(false);

  const project = join(work, 'app');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  npm(['install', '--offline', '--ignore-scripts', join(work, filename)], project);

  writeFileSync(join(project, 'main.mjs'), `
    import { init } from 'ikpd';
    const ikpd = await init();
    const r = ikpd.solveTwoBone({
      root: { position: [0, 0, 0] }, mid: { position: [1, 0.1, 0] }, end: { position: [2, 0, 0] },
      target: [1, 1, 0],
    });
    console.log(JSON.stringify({ version: ikpd.version, reached: r.reached, end: r.end.position }));
  `);
  const out = JSON.parse(execFileSync('node', ['main.mjs'], { cwd: project, encoding: 'utf8' }));
  expect(out.reached).toBe(true);
  out.end.forEach((v, i) => expect(v).toBeCloseTo([1, 1, 0][i], 4));
  expect(out.version).toMatch(/^\d+\.\d+\.\d+/);

  // The `node -e` form the issue names, with the CommonJS-free dynamic import.
  const viaEval = execFileSync('node', ['-e', `import('ikpd').then(async ({ init }) => {
    const ikpd = await init();
    console.log(ikpd.solveAim({ position: [0, 0, 0], target: [0, 2, 0] }).rotation.map((v) => v.toFixed(4)).join(','));
  })`], { cwd: project, encoding: 'utf8' });
  expect(viaEval.trim()).toBe('0.0000,0.0000,0.7071,0.7071');
});
