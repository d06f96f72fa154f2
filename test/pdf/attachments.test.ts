import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeTypeOf } from '../../src/pdf/attachments.js';
import { convertToPdfA3 } from '../../src/pdf/ghostscript.js';
import { readPdf } from '../../src/pdf/read.js';
import { checkPdfA3b, stopVeraPdf } from '../../src/pdf/verapdf.js';
import { buildZugferd, type BuiltZugferd } from '../../src/pdf/zugferd.js';
import { invoiceSyntaxOf, writeInvoiceXml } from '../../src/xml/index.js';
import { mustangAvailable, mustangRejects, veraPdfAvailable } from '../support/java-validators.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { samplePdf } from './sample-pdf.js';

/**
 * Input PDFs that already carry files: the ZUGFeRD build (buildZugferd, what the createZugferd
 * endpoints run) keeps other attachments as PDF/A-3 associated files, replaces earlier invoice
 * XMLs and drops what it cannot read, says so, and the result passes veraPDF and Mustang.
 */

const invoice = invoiceFixture('01-standard-19');
const xml = Buffer.from(writeInvoiceXml(invoice, { profile: 'EN16931' }));
const now = new Date('2025-03-03T10:00:00Z');
const dir = mkdtempSync(path.join(tmpdir(), 'zugferd-attachments-'));
const built: string[] = [];

/**
 * Attaches files the way careless producers do: pdf-lib's attach without MIME type or
 * relationship, then the Params and the catalog's AF array taken away as well. `corrupt` names
 * a file whose stream claims FlateDecode but holds no deflate data.
 */
async function attachBare(pdf: Uint8Array, files: Record<string, string | Uint8Array>, corrupt?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  for (const [name, content] of Object.entries(files)) await doc.attach(typeof content === 'string' ? Buffer.from(content) : content, name);
  const again = await PDFDocument.load(await doc.save({ useObjectStreams: false }), { updateMetadata: false });
  const { context, catalog } = again;
  catalog.delete(PDFName.of('AF'));
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Type')) === PDFName.of('EmbeddedFile')) {
      expect(object.dict.has(PDFName.of('Subtype'))).toBe(false);
      object.dict.delete(PDFName.of('Params'));
    }
  }
  if (corrupt) {
    const stream = context.register(
      context.stream(Buffer.from('this is not deflate data'), { Type: 'EmbeddedFile', Filter: 'FlateDecode' }),
    );
    const spec = context.register(
      context.obj({ Type: 'Filespec', F: PDFString.of(corrupt), UF: PDFHexString.fromText(corrupt), EF: { F: stream } }),
    );
    const names = catalog
      .lookup(PDFName.of('Names'), PDFDict)
      .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
      .lookup(PDFName.of('Names'), PDFArray);
    names.push(PDFHexString.fromText(corrupt));
    names.push(spec);
  }
  return again.save({ useObjectStreams: false });
}

async function build(name: string, pdf: Uint8Array): Promise<BuiltZugferd> {
  const result = await buildZugferd({ pdf, xml, convert: 'auto', now });
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, result.pdf);
  built.push(file);
  return result;
}

const byName = (notes: BuiltZugferd['attachments']) => [...notes].sort((a, b) => a.fileName.localeCompare(b.fileName));
const invoicesIn = (attachments: Awaited<ReturnType<typeof readPdf>>['attachments']) =>
  attachments.filter((a) => a.bytes && invoiceSyntaxOf(Buffer.from(a.bytes).toString('utf8')) !== undefined);

let pdfa: Uint8Array;
let plain: Uint8Array;
beforeAll(async () => {
  plain = await samplePdf(invoice);
  pdfa = await convertToPdfA3(plain);
});
afterAll(async () => {
  await stopVeraPdf();
  rmSync(dir, { recursive: true, force: true });
});

describe('attachments of the input PDF', () => {
  it('MIME types come from the file name extension', () => {
    expect(['a.PDF', 'b.txt', 'c.jpeg', 'd.xlsx', 'noextension', 'e.weird'].map(mimeTypeOf)).toEqual([
      'application/pdf',
      'text/plain',
      'image/jpeg',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });

  it('a delivery note without MIME type, relationship or AF entry is kept as associated file; an unreadable one is dropped', async () => {
    const input = await attachBare(
      pdfa,
      { 'lieferschein.txt': 'Lieferschein 4711', 'foto.jpeg': new Uint8Array([0xff, 0xd8, 0xff, 0xd9]) },
      'zerstoert.pdf',
    );
    const result = await build('delivery-note', input);
    expect(result.converted).toBe(false);
    expect(byName(result.attachments)).toEqual([
      {
        fileName: 'foto.jpeg',
        action: 'kept',
        detail:
          "kept as associated file; added AFRelationship Unspecified, MIME type image/jpeg, modification date, size, entry in the catalog's AF array",
      },
      {
        fileName: 'lieferschein.txt',
        action: 'kept',
        detail:
          "kept as associated file; added AFRelationship Unspecified, MIME type text/plain, modification date, size, entry in the catalog's AF array",
      },
      { fileName: 'zerstoert.pdf', action: 'dropped', detail: expect.stringMatching(/^removed: its content cannot be decoded/) },
    ]);
    const facts = await readPdf(result.pdf);
    expect(facts.attachments.map(({ name, mimeType, relationship, associated }) => ({ name, mimeType, relationship, associated }))).toEqual(
      [
        { name: 'factur-x.xml', mimeType: 'text/xml', relationship: 'Alternative', associated: true },
        { name: 'foto.jpeg', mimeType: 'image/jpeg', relationship: 'Unspecified', associated: true },
        { name: 'lieferschein.txt', mimeType: 'text/plain', relationship: 'Unspecified', associated: true },
      ],
    );
    expect(invoicesIn(facts.attachments).map((a) => a.name)).toEqual(['factur-x.xml']);
  });

  it('an old factur-x.xml and an invoice XML under another name are replaced; another XML is kept', async () => {
    const old = writeInvoiceXml({ ...invoice, invoiceNumber: 'OLD-1' }, { profile: 'BASIC' });
    const input = await attachBare(plain, {
      'factur-x.xml': old,
      'rechnung-alt.xml': writeInvoiceXml(invoice, { syntax: 'UBL' }),
      'notiz.xml': '<notiz>bitte bis Freitag</notiz>',
    });
    const result = await build('old-invoice', input);
    expect(result.converted).toBe(true);
    expect(byName(result.attachments).map(({ fileName, action }) => ({ fileName, action }))).toEqual([
      { fileName: 'factur-x.xml', action: 'replaced' },
      { fileName: 'notiz.xml', action: 'kept' },
      { fileName: 'rechnung-alt.xml', action: 'replaced' },
    ]);
    const facts = await readPdf(result.pdf);
    expect(facts.attachments.map((a) => a.name)).toEqual(['factur-x.xml', 'notiz.xml']);
    const invoices = invoicesIn(facts.attachments);
    expect(invoices.map((a) => a.name)).toEqual(['factur-x.xml']);
    expect(Buffer.from(invoices[0]!.bytes!).equals(xml)).toBe(true);
    expect(facts.attachments[1]).toMatchObject({ mimeType: 'text/xml', relationship: 'Unspecified', associated: true });
  });

  it.runIf(veraPdfAvailable())(
    'the inputs fail PDF/A-3 for their attachments; every result passes veraPDF PDF/A-3b',
    { timeout: 300_000 },
    async () => {
      const input = await attachBare(pdfa, { 'lieferschein.txt': 'Lieferschein 4711' });
      expect((await checkPdfA3b(input))?.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['PDFA-6.8-1']));
      expect(built.length).toBe(2);
      for (const file of built) {
        const verdict = await checkPdfA3b(new Uint8Array(readFileSync(file)));
        expect({ file: path.basename(file), findings: verdict?.findings }).toEqual({ file: path.basename(file), findings: [] });
      }
    },
  );

  it.runIf(mustangAvailable())('every result passes the Mustang validation', { timeout: 300_000 }, async () => {
    expect(built.length).toBe(2);
    expect(await mustangRejects(built)).toEqual([]);
  });
});
