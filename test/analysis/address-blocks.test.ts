import { describe, expect, it } from 'vitest';
import { buildBlocks, layoutPages } from '../../src/analysis/layout.js';
import { ocrLine as line, ocrPage as scan } from './fixtures.js';

describe('an address block on a scan', () => {
  it('holds a line whose one word box the scan swelled ("Payet" with a smudge under its y)', () => {
    const payet = line(1440, 1360, 'Alexandre Payet');
    payet[1] = { ...payet[1]!, height: 42 };
    const [page] = layoutPages(
      scan([
        ...line(1400, 1360, 'Ma jolie boutique'),
        ...payet,
        ...line(1480, 1360, '35 rue de la République'),
        ...line(1520, 1360, '69001 Lyon'),
      ]),
    );
    const blocks = buildBlocks(page!).map((b) => b.segments.map((s) => s.text));
    expect(blocks).toEqual([['Ma jolie boutique', 'Alexandre Payet', '35 rue de la République', '69001 Lyon']]);
  });
});
