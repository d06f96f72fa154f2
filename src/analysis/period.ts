import { scanDates } from './dates.js';
import { lineText, type Doc, type Found } from './document.js';
import { fold } from './text.js';

/**
 * The invoicing period (BG-14): a period label followed by two dates on its line
 * ("Abrechnungszeitraum : 01.10.2018 bis 31.10.2018", "Billing period 1 Mar 2024 – 31 Mar 2024").
 */
const PERIOD_LABEL =
  /(?:abrechnungs|leistungs|berechnungs|liefer|rechnungs)zeitraum|zeitraum|billing period|invoic(?:e|ing) period|service period|period(?:e)? (?:de facturation|du)|periode de facturation|facturatieperiode|periodo di fatturazione/;

/** Its start and end under labels of their own ("Start of service: 23 Apr 2024" / "End of service: 23 Sep 2024"). */
const START_LABEL =
  /\b(?:start of (?:the )?(?:service|period|billing period)|(?:service|period|billing) start|leistungsbeginn|beginn des (?:leistungs|abrechnungs)zeitraums|debut de (?:la )?(?:periode|prestation)|inizio periodo|begin(?:datum)? (?:van de )?periode)\b/;
const END_LABEL =
  /\b(?:end of (?:the )?(?:service|period|billing period)|(?:service|period|billing) end|leistungsende|ende des (?:leistungs|abrechnungs)zeitraums|fin de (?:la )?(?:periode|prestation)|fine periodo|eind(?:datum)? (?:van de )?periode)\b/;

export function findInvoicingPeriod(doc: Doc): { start: Found; end: Found } | undefined {
  return periodOnOneLine(doc) ?? periodOnTwoLines(doc);
}

/** The first date after a label on its line, with where it was found. */
function datesAfter(doc: Doc, label: RegExp): Array<Found & { index: number }> {
  return doc.pages.flatMap((page) =>
    page.lines.flatMap((line) => {
      const text = lineText(line);
      const at = label.exec(fold(text));
      const date = at ? scanDates(text, doc.order).find((d) => d.start >= at.index) : undefined;
      return date ? [{ value: date.iso, page: page.page, y: line.top, score: 0.9, via: 'label:period', index: line.index }] : [];
    }),
  );
}

function periodOnTwoLines(doc: Doc): { start: Found; end: Found } | undefined {
  const [starts, ends] = [datesAfter(doc, START_LABEL), datesAfter(doc, END_LABEL)];
  if (starts.length !== 1 || ends.length !== 1) return undefined;
  const [start, end] = [starts[0]!, ends[0]!];
  if (start.page !== end.page || Math.abs(end.index - start.index) > 3 || start.value > end.value) return undefined;
  const found = ({ index: _i, ...f }: Found & { index: number }): Found => f;
  return { start: found(start), end: found(end) };
}

function periodOnOneLine(doc: Doc): { start: Found; end: Found } | undefined {
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
