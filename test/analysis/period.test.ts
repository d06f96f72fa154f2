import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { findInvoicingPeriod } from '../../src/analysis/period.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

async function periodOf(texts: Text[]) {
  const found = findInvoicingPeriod(buildDoc(await extractTextLayer(await pdfOf([texts]))));
  return found && [found.start.value, found.end.value];
}

const head: Text[] = [
  { s: 'Kestrel Data Ltd.', x: 60, y: 50, size: 12 },
  { s: 'Invoice No. 4411', x: 60, y: 120 },
];

describe('the invoicing period (BG-14)', () => {
  it('reads a period printed on one line after its label', async () => {
    expect(await periodOf([...head, { s: 'Billing period 1 Mar 2024 – 31 Mar 2024', x: 60, y: 150 }])).toEqual([
      '2024-03-01',
      '2024-03-31',
    ]);
  });

  it('reads its start and end under labels of their own, beside other text on their lines', async () => {
    const texts: Text[] = [
      ...head,
      { s: 'Globex Corp.', x: 60, y: 150 },
      { s: 'Start of service:', x: 330, y: 150 },
      { s: '23 Apr 2024', x: 440, y: 150 },
      { s: '142 Scorpio Drive', x: 60, y: 162 },
      { s: 'End of service:', x: 330, y: 162 },
      { s: '23 Sep 2024', x: 440, y: 162 },
    ];
    expect(await periodOf(texts)).toEqual(['2024-04-23', '2024-09-23']);
  });

  it('reads no period from a start without its end, or an end before its start', async () => {
    expect(await periodOf([...head, { s: 'Leistungsbeginn: 01.04.2024', x: 60, y: 150 }])).toBeUndefined();
    expect(
      await periodOf([...head, { s: 'Leistungsbeginn: 01.04.2024', x: 60, y: 150 }, { s: 'Leistungsende: 01.03.2024', x: 60, y: 162 }]),
    ).toBeUndefined();
  });
});
