import { scanDates } from './dates.js';
import { lineText, type Doc, type Found } from './document.js';
import { fold } from './text.js';

/**
 * The invoicing period (BG-14): a period label followed by two dates on its line
 * ("Abrechnungszeitraum : 01.10.2018 bis 31.10.2018", "Billing period 1 Mar 2024 – 31 Mar 2024").
 */
const PERIOD_LABEL =
  /(?:abrechnungs|leistungs|berechnungs|liefer|rechnungs)zeitraum|zeitraum|billing period|invoic(?:e|ing) period|service period|period(?:e)? (?:de facturation|du)|periode de facturation|facturatieperiode|periodo di fatturazione/;

export function findInvoicingPeriod(doc: Doc): { start: Found; end: Found } | undefined {
  for (const page of doc.pages) {
    for (const line of page.lines) {
      const text = lineText(line);
      const label = PERIOD_LABEL.exec(fold(text));
      if (!label) continue;
      const dates = scanDates(text, doc.order).filter((d) => d.start >= label.index);
      if (dates.length < 2 || dates[0]!.iso > dates[1]!.iso) continue;
      const at = { page: page.page, y: line.top, score: 0.9, via: 'label:period' };
      return { start: { ...at, value: dates[0]!.iso }, end: { ...at, value: dates[1]!.iso } };
    }
  }
  return undefined;
}
