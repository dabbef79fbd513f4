// Orders test files so the long ones start first: browser and package files
// (each starts Chromium or a bundler) before the in-process JS files, and
// within each group the order Vitest would choose (its recorded durations,
// else file size). On a clean clone Vitest has no durations, so by size alone
// a minute-long browser file could start last and run alone at the end.
import { BaseSequencer } from 'vitest/node';

const slowFolder = /[\\/]tests[\\/](browser|package)[\\/]/;

export default class SlowFirstSequencer extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => slowFolder.test(f.moduleId)), ...sorted.filter((f) => !slowFolder.test(f.moduleId))];
  }
}
