import { fold } from '../analysis/text.js';

/** The languages whose invoices we read, told apart by their words. */
export type Language = 'de' | 'en' | 'fr' | 'it' | 'nl' | 'es';

/** Short function words and invoice words that only one of the languages uses (lower case, without diacritics). */
const LANGUAGE_WORDS: Readonly<Record<Language, RegExp>> = {
  de: /^(und|der|die|das|mit|fur|von|bei|rechnung|betrag|menge|summe|datum|gesamt|netto|brutto|zahlbar|bitte|ihre|unsere|steuer|umsatzsteuer|mwst|lieferung|kunde|nr)$/,
  en: /^(and|the|for|with|of|invoice|amount|quantity|total|date|due|please|your|our|payment|tax|customer|description|price|bill)$/,
  fr: /^(et|le|la|les|des|du|pour|avec|facture|montant|quantite|date|echeance|votre|notre|paiement|tva|client|prix|total|ht|ttc)$/,
  it: /^(e|il|la|per|con|del|della|fattura|importo|quantita|data|scadenza|pagamento|iva|cliente|prezzo|totale)$/,
  nl: /^(en|het|de|een|voor|met|van|factuur|bedrag|aantal|datum|vervaldatum|betaling|btw|klant|prijs|totaal)$/,
  es: /^(y|el|la|los|para|con|del|factura|importe|cantidad|fecha|vencimiento|pago|iva|cliente|precio|total)$/,
};

/**
 * The language most of a text's words belong to, when one clearly leads: five of its words at
 * least, and half as many again as the next language's. Diacritics do not count, so a page OCR
 * read without its accents ("echeance") still tells its language.
 */
export function languageOf(texts: Iterable<string>): Language | undefined {
  const counts = new Map<Language, number>();
  for (const text of texts) {
    for (const word of fold(text).split(/[^\p{L}]+/u)) {
      for (const [lang, re] of Object.entries(LANGUAGE_WORDS) as Array<[Language, RegExp]>)
        if (re.test(word)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
    }
  }
  const [first, second] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (!first || first[1] < 5 || (second && second[1] * 1.5 > first[1])) return undefined;
  return first[0];
}
