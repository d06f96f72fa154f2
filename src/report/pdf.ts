import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { embedFonts } from '../render/fonts.js';
import { Flow, MM, type TextStyle } from '../render/layout.js';
import { declarePdfA3b } from '../render/pdfa.js';
import { LOCALE } from './language.js';
import type { ReportView } from './validation-report.js';

/**
 * The report as a PDF to send to a supplier: the same view as the HTML, laid out with the invoice
 * renderer's primitives (src/render: embedded DejaVu, page flow, PDF/A-3b declaration), so no
 * browser is needed to print it and the file can be archived as it is.
 */

const COLORS = {
  text: '#1a1a1a',
  muted: '#4a5058',
  accent: '#1f4e79',
  rule: '#c8ccd2',
  tableHeaderBackground: '#e6edf5',
  tableHeaderText: '#1f4e79',
};
const BODY = 9;
const A4 = { pageWidth: 210 * MM, pageHeight: 297 * MM, left: 18 * MM, right: 192 * MM, top: 18 * MM, bottom: 282 * MM };

const STYLE: Record<string, TextStyle> = {
  title: { bold: true, size: 16, color: 'accent' },
  heading: { bold: true, size: 11, color: 'accent' },
  bold: { bold: true },
  body: {},
  muted: { size: 8, color: 'muted' },
};

export async function reportPdf(view: ReportView, created = new Date()): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc, 'DejaVuSans');
  const flow = new Flow(doc, A4, fonts, BODY, COLORS, () => {});
  const w = view.words;
  flow.addPage();
  flow.paragraph(view.title, STYLE.title!);
  flow.gap(4);
  flow.paragraph(view.verdict, STYLE.heading!);
  flow.gap(4);
  for (const [label, value] of view.facts) flow.paragraph(`${label}: ${value}`, STYLE.body!);

  for (const group of view.groups) {
    flow.gap(8);
    flow.keep(flow.lineHeight(STYLE.heading!) * 3);
    flow.paragraph(`${group.title} (${w.groupErrors(group.errors)})`, STYLE.heading!);
    if (group.ruleSets.length) flow.paragraph(group.ruleSets.join(', '), STYLE.muted!);
    for (const f of group.findings) {
      const head = [w.severities[f.severity], f.ruleId, f.terms.join(', ')].filter(Boolean).join('  ·  ');
      const lines = [
        ...flow.wrap(head, STYLE.bold!, flow.width),
        ...flow.wrap(f.message, STYLE.body!, flow.width),
        ...(f.location || f.line
          ? flow.wrap(`${w.location}: ${[f.line && w.line(f.line), f.location].filter(Boolean).join(', ')}`, STYLE.muted!, flow.width)
          : []),
      ];
      flow.gap(3);
      // A finding stays on one page unless it alone is longer than a page.
      if (flow.heightOf(lines) <= A4.bottom - A4.top) flow.keep(flow.heightOf(lines));
      for (const line of lines) {
        flow.keep(flow.lineHeight(line.style));
        flow.write([line]);
      }
    }
  }
  if (!view.groups.length) flow.paragraph(w.noFindings, STYLE.body!);

  flow.gap(8);
  flow.keep(flow.lineHeight(STYLE.heading!) * 2);
  flow.paragraph(w.validators, STYLE.heading!);
  for (const a of view.artefacts) flow.paragraph(`${a.name}: ${a.version}`, STYLE.body!);
  flow.gap(4);
  flow.paragraph(w.messagesNote, STYLE.muted!);

  await declarePdfA3b(doc, {
    title: view.title,
    author: 'einvoice-service',
    creator: 'einvoice-service, validation report',
    language: LOCALE[view.lang],
    created,
    fileId: randomBytes(16).toString('hex'),
  });
  return doc.save();
}
