import { describe, expect, it } from 'vitest';
import { reportJson, reportText, type FileReport } from '../../connectors/report.js';

const base = {
  route: 'copier',
  file: 'invoice.pdf',
  operation: 'createZugferdFromPdf',
  workflowId: 'connector-copier-0123',
  at: '2026-11-25T13:20:05.000Z',
} as const;

describe('file reports', () => {
  it('tells the person who dropped the file what to add, with the business term and the validator', () => {
    const report: FileReport = {
      ...base,
      outcome: {
        kind: 'refused',
        code: 'FIELDS_MISSING',
        userMessage: 'The invoice lacks data an e-invoice needs.',
        fields: [
          {
            field: 'seller.sellerVatIdentifier',
            bt: 'BT-31',
            message: "Print the seller's VAT id (USt-IdNr.) in the letterhead or footer.",
          },
        ],
        findings: [
          { ruleId: 'BR-CO-26', severity: 'error', message: 'Seller identifier, legal registration or VAT id required', source: 'en16931' },
        ],
        artefacts: [{ name: 'EN16931 CII schematron', version: '1.3.15' }],
      },
    };
    const text = reportText(report);
    expect(text).toContain('invoice.pdf: not processed (FIELDS_MISSING)');
    expect(text).toContain("  - BT-31 seller.sellerVatIdentifier: Print the seller's VAT id");
    expect(text).toContain('  - BR-CO-26: Seller identifier');
    expect(text).toContain('Checked with: EN16931 CII schematron 1.3.15');
    expect(JSON.parse(reportJson(report))).toEqual(report);
  });

  it('shows what was read and the other readings of a value a person must confirm', () => {
    const report: FileReport = {
      ...base,
      outcome: {
        kind: 'refused',
        code: 'FIELDS_UNCERTAIN',
        userMessage: 'Some details could not be read with enough certainty.',
        fields: [
          {
            field: 'invoice.seller.sellerName',
            bt: 'BT-27',
            message: "The seller's name (BT-27) was read, but not with enough certainty; please confirm it",
            value: 'Lieferant GmbH',
            candidates: ['Kunden AG Mitte', 'Musterstadt Werke'],
          },
        ],
      },
    };
    const text = reportText(report);
    expect(text).toContain('      read: "Lieferant GmbH"');
    expect(text).toContain('      also found: "Kunden AG Mitte", "Musterstadt Werke"');
  });

  it('names the result of a success, the verdict of a validation, and the first copy of a duplicate', () => {
    expect(reportText({ ...base, outcome: { kind: 'done', result: 'invoice-zugferd.pdf' } })).toMatch(
      /^invoice\.pdf: done → invoice-zugferd\.pdf\n/,
    );
    const warnings = Array.from({ length: 25 }, (_, i) => ({
      ruleId: `W-${i}`,
      severity: 'warning' as const,
      message: 'w',
      source: 'xrechnung' as const,
    }));
    const validation = reportText({ ...base, operation: 'validate', outcome: { kind: 'done', valid: true, findings: warnings } });
    expect(validation).toMatch(/^invoice\.pdf: valid\n/);
    expect(validation).toContain('… and 5 more in the JSON report');
    expect(
      reportText({
        ...base,
        outcome: { kind: 'duplicate', workflowId: 'connector-copier-0123', firstFile: 'scan-1.pdf', firstSeenAt: '2026-11-20T08:00:00Z' },
      }),
    ).toContain('arrived before as scan-1.pdf (2026-11-20)');
  });
});
