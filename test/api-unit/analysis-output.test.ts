import { describe, expect, it } from 'vitest';
import { failureEmail } from '../../src/api/failure-mail.js';
import { attachmentDisposition } from '../../src/api/file-names.js';
import { sanitiseFileName, zugferdFileName } from '../../src/files/names.js';
import { toV1Invoice, toV2Invoice } from '../../src/invoice/output.js';
import { catalog } from '../../src/invoice/catalog.js';
import { fixtureInvoice } from '../reading/fixtures.js';

describe('analysis output', () => {
  const invoice = fixtureInvoice('02-mixed-19-7.json');

  it('V2: dates as DD.MM.YYYY, amounts and rates as numbers, nothing that was not found', () => {
    const v2 = toV2Invoice(invoice) as any;
    expect(v2.invoiceIssueDate).toBe(invoice.invoiceIssueDate!.split('-').reverse().join('.'));
    expect(v2.documentTotals.invoiceTotalAmountWithVat).toBe(Number(invoice.documentTotals!.invoiceTotalAmountWithVat));
    expect(v2.invoiceLine[0].lineVatInformation[0].invoicedItemVatRate).toBe(
      Number(invoice.invoiceLine![0]!.lineVatInformation![0]!.invoicedItemVatRate),
    );
    expect(v2.seller.sellerIdentifier).toEqual(invoice.seller!.sellerIdentifier);
    expect(v2.payee).toBeUndefined();
    expect(toV2Invoice({ invoiceNumber: 'X' })).toEqual({ invoiceNumber: 'X' });
  });

  it('V1: every field of the invoice object, null or empty where nothing was found', () => {
    const v1 = toV1Invoice({ invoiceNumber: 'X', invoiceLine: [{ invoiceLineNetAmount: '1.50' }] }) as any;
    for (const { path, list } of catalog.filter((f) => !f.path.includes('[]')))
      expect(v1, path).toHaveProperty(path, path === 'invoiceNumber' ? 'X' : list ? [] : null);
    expect(v1.invoiceNote).toEqual([]);
    expect(v1.invoiceLine[0].invoiceLineNetAmount).toBe(1.5);
    expect(v1.invoiceLine[0].priceDetails.itemNetPrice).toBeNull();
    expect(v1.invoiceLine[0].invoiceLineAllowances).toEqual([]);
  });
});

describe('file names', () => {
  it('sanitises as the README says (Analysis, createZugferdFromPdf)', () => {
    expect(sanitiseFileName('a/b\\c"d\'e\u0000f\u001f.pdf')).toBe('a_b c d e f .pdf');
    expect(sanitiseFileName(`${'ä'.repeat(250)}.pdf`)).toBe('ä'.repeat(200));
    expect(sanitiseFileName(undefined)).toBe('invoice.pdf');
    expect(sanitiseFileName(' \u0001 ')).toBe('invoice.pdf');
  });

  it('names the output <name>-zugferd.pdf, whatever the input type', () => {
    expect(zugferdFileName('Rechnung 4711.pdf')).toBe('Rechnung 4711-zugferd.pdf');
    expect(zugferdFileName('scan.JPEG')).toBe('scan-zugferd.pdf');
    expect(zugferdFileName('fax.tif')).toBe('fax-zugferd.pdf');
    expect(zugferdFileName('notes.txt')).toBe('notes.txt-zugferd.pdf');
  });

  it('gives Content-Disposition an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('Größe (1).pdf')).toBe(
      `attachment; filename="Groe (1).pdf"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%281%29.pdf`.replace('Groe', 'Gro_e'),
    );
  });
});

describe('failure e-mail', () => {
  it('explains the failure with fields, rules and the reference, HTML-escaped', () => {
    const mail = failureEmail('<Rechnung>.pdf', {
      code: 'TOTALS_MISMATCH',
      userMessage: 'The totals printed on the invoice do not match its lines.',
      fields: [
        {
          field: 'invoice.documentTotals.invoiceTotalAmountWithVat',
          bt: 'BT-112',
          message: 'BT-112 printed as 592.75, but net total + VAT give 562.75',
        },
      ],
      ruleCodes: ['BR-CO-15'],
      reference: 'ref-1',
      retryable: false,
    });
    expect(mail.subject).toBe('E-invoice not created: <Rechnung>.pdf');
    expect(mail.text).toContain('  - BT-112 printed as 592.75, but net total + VAT give 562.75');
    expect(mail.text).toContain('Rules not met: BR-CO-15');
    expect(mail.text).toContain('Reference: ref-1');
    expect(mail.html).toContain('&lt;Rechnung&gt;.pdf');
    expect(mail.html).not.toContain('<Rechnung>');
  });

  it('writes to the owner of a German invoice in German', () => {
    const mail = failureEmail(
      'Rechnung 17.pdf',
      {
        code: 'FIELDS_MISSING',
        userMessage: 'Auf der Rechnung fehlen Pflichtangaben: das Land des Käufers.',
        reference: 'ref-2',
        retryable: false,
      },
      'de',
    );
    expect(mail.subject).toBe('E-Rechnung nicht erstellt: Rechnung 17.pdf');
    expect(mail.text).toContain('Grund: Auf der Rechnung fehlen Pflichtangaben');
    expect(mail.text).toContain('Bitte prüfen Sie die Rechnung');
    expect(mail.html).toContain('<html lang="de">');
  });

  it('asks to try again later when the problem was ours', () => {
    expect(failureEmail('a.pdf', { code: 'SERVICE_UNAVAILABLE', userMessage: 'x', reference: 'r', retryable: true }).text).toMatch(
      /temporary problem/,
    );
  });
});
