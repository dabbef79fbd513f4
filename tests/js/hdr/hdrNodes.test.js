// ikpd/three HDR nodes, checks that need no GPU (the GPU agreement test is
// tests/browser/hdr-agreement.test.js): shared constants equal the WASM
// build's, the entry exports the nodes, and bad choices throw.
import { describe, expect, it } from 'vitest';
import * as three from '../../../web/three/hdr/hdr.js';
import { PQ, REC2020_TO_REC709, REC709_TO_REC2020, SDR_FILMIC } from '../../../web/src/hdr/hdrConstants.js';
import { ikpd } from '../../support/setup.js';

describe('ikpd/three HDR nodes', () => {
  it('are exported by the ikpd/three entry', () => {
    for (const name of ['filmicNode', 'hdrCurveNode', 'toneMapHDRNode', 'toneMapHDRLinearNode', 'gammaEncodeNode',
      'gammaDecodeNode', 'srgbEncodeNode', 'srgbDecodeNode', 'rec709ToRec2020Node', 'rec2020ToRec709Node',
      'expandGamutNode', 'normalizePaperWhiteNode', 'linearToPQNode', 'pqToLinearNode', 'outputTransformNode',
      'createHDRUniforms', 'hdrToneMapping', 'isExtendedOutput', 'applyHDRToneMapping']) {
      expect(typeof three[name], name).toBe('function');
    }
  });

  it('use the same constants as the C++ library', () => {
    expect(SDR_FILMIC).toEqual(ikpd.hdr.SDR_FILMIC);
    for (let c = 0; c < 3; c++) {
      const unit = [0, 0, 0];
      unit[c] = 1;
      const forward = ikpd.hdr.rec709ToRec2020(unit);
      const inverse = ikpd.hdr.rec2020ToRec709(unit);
      for (let r = 0; r < 3; r++) {
        expect(forward[r]).toBe(Math.fround(REC709_TO_REC2020[r][c]));
        expect(inverse[r]).toBe(Math.fround(REC2020_TO_REC709[r][c]));
      }
    }
    expect(PQ.m2).toBe(78.84375);
    expect(ikpd.hdr.linearToPQ(0)).toBeCloseTo(PQ.c1 ** PQ.m2, 12);
  });

  it('build graphs for numbers and vectors, and reject bad choices', () => {
    expect(three.filmicNode(0.5).isNode).toBe(true);
    expect(three.outputTransformNode(three.filmicNode(1), { encoding: 'extended', input: 'display' }).isNode).toBe(true);
    expect(() => three.outputTransformNode(three.filmicNode(1), { encoding: 'hlg' })).toThrow(/^encoding: /);
    expect(() => three.outputTransformNode(three.filmicNode(1), { input: 'raw' })).toThrow(/^input: /);
    const u = three.createHDRUniforms({ peak: 2000 });
    expect([u.paperWhite.value, u.peak.value, u.saturation.value]).toEqual([250, 2000, 0]);
    expect(three.isExtendedOutput({ backend: { isWebGPUBackend: false } })).toBe(false);
    expect(three.isExtendedOutput({
      backend: { isWebGPUBackend: true, context: { getConfiguration: () => ({ toneMapping: { mode: 'extended' } }) } },
    })).toBe(true);
  });
});
