import { describe, expect, it } from 'vitest';
import { init } from '../../web/index.js';
import { ikpd } from './setup.js';

describe('init', () => {
  it('loads once and reports the version', async () => {
    expect(await init()).toBe(ikpd);
    expect(ikpd.version).toBe('0.1.0');
  });
});
