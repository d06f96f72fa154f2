/**
 * The printed labels of invoices in German, English, French, Italian and Dutch
 * mapped to what they announce. Patterns run on folded text (see text.ts: lower case, no
 * diacritics, ß → ss). Weights say how sure a label is on its own: "Rechnungsnummer" is,
 * a bare "Nr." is not.
 */

import { fold } from './text.js';

export type HeaderField =
  | 'invoiceNumber'
  | 'issueDate'
  | 'dueDate'
  | 'deliveryDate'
  | 'buyerReference'
  | 'orderReference'
  | 'yourReference'
  | 'contractReference'
  | 'customerNumber'
  | 'taxNumber'
  | 'currency'
  | 'typeCode'
  | 'paymentTerms'
  | 'precedingInvoice';

export interface LabelRule<F extends string> {
  field: F;
  /** Matched at the start of a segment's folded text (or anywhere, for inline rules). */
  pattern: RegExp;
  weight: number;
  /** Also found inside running text ("… gemäß Bestellung Nr. 4711 vom …"). */
  inline: boolean;
}

const rule = <F extends string>(field: F, weight: number, source: string, inline = false): LabelRule<F> => ({
  field,
  weight,
  inline,
  // A label ending in a letter must end at a word boundary ("datum" must not eat "datumsangabe");
  // one ending in a sign may have its value glued on ("n°562044387", "Nr.4711").
  pattern: new RegExp(
    `${inline ? '(?<![\\p{L}\\p{N}])' : '^'}(?:${source})(?:(?<!\\p{L})|(?![\\p{L}\\p{N}]))\\s*[:#.]?\\s*(?:[:#]\\s*)?`,
    'u',
  ),
});

const NO = String.raw`(?:nummer|nr\.?|no\.?|n°|nº|no°|num(?:ero|\.)?|number|#|id)`;

export const HEADER_LABELS: ReadonlyArray<LabelRule<HeaderField>> = [
  rule('invoiceNumber', 1, String.raw`(?:rechnungs?|gutschrifts?|beleg|korrektur|storno|re\.-?)[- ]?${NO}`),
  // "Tax invoice no.", "Taxable invoice num.", "Commercial invoice number": a kind of invoice before its number.
  rule('invoiceNumber', 1, String.raw`(?:(?:tax(?:able)?|vat|commercial|sales|final) )?(?:invoice|credit note|bill|document)[- ]?${NO}`),
  rule('invoiceNumber', 1, String.raw`(?:numero|n°|nº|no\.?) (?:de )?(?:la )?(?:facture|d'avoir|avoir)`),
  rule('invoiceNumber', 1, String.raw`(?:factuur|facture|avoir)[- ]?${NO}`),
  rule('invoiceNumber', 1, String.raw`ref(?:erence)?\.? (?:de (?:la )?)?facture|invoice ref(?:erence|\.)?|rechnungsreferenz`),
  rule(
    'invoiceNumber',
    1,
    String.raw`(?:fattura|nota di credito|documento)(?: n\.?| nr\.?| num(?:ero|\.)| n°)|(?:numero|n\.|nr\.) (?:della )?(?:fattura|nota di credito|documento)`,
  ),
  // Titles followed by the number: "Rechnung RE-2024-17", "Invoice FA-2017-0008", "Handelsrechnung Nr. 471102".
  rule(
    'invoiceNumber',
    0.75,
    String.raw`(?:[a-z]*rechnung|gutschrift|invoice|tax invoice|credit note|facture|avoir|factuur|fattura|nota di credito)(?: ${NO})?`,
  ),
  // "Fattura differita n. 471102 del 05/06/2018".
  rule('invoiceNumber', 0.75, String.raw`(?:fattura|nota di credito)[^:]{0,30}? (?:n\.?|nr\.?|numero|n°)`),
  // Longer titles with the number after "Nr.": "Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102".
  rule(
    'invoiceNumber',
    0.75,
    String.raw`(?:[a-z]*rechnung|[a-z]*rechnungs? ?kor ?rektur|gutschrift|invoice|credit note|facture|avoir)[^:]{0,50}? (?:nr\.?|no\.?|n°|nº|nummer|number|#)`,
  ),

  // In running text: "Buchungshilfe – keine Rechnung Nr. 471102 vom 13.11.2019".
  rule('invoiceNumber', 0.8, String.raw`(?:rechnung|gutschrift|invoice) (?:nr\.?|nummer|no\.?)`, true),
  rule('issueDate', 0.8, String.raw`(?:rechnung|gutschrift) (?:nr\.?|nummer) \S+ vom`, true),
  rule(
    'issueDate',
    0.8,
    String.raw`(?:fattura|nota di credito)[a-z ]{0,20}? (?:n\.?|nr\.?|numero) \S+ del(?: giorno)?|(?:facture|avoir) (?:n°|no\.?|numero) \S+ du`,
    true,
  ),

  rule('issueDate', 1, String.raw`(?:rechnungs|gutschrifts|beleg|ausstellungs|factuur)[- ]?datum`),
  rule('issueDate', 1, String.raw`(?:invoice|issue|billing|credit note|document) date|date of (?:issue|invoice)|issued?(?: on| at)?`),
  rule('issueDate', 1, String.raw`date (?:de (?:la )?)?(?:facture|facturation|d'emission|emission|de l'avoir)|fait le|emise? le`),
  rule('issueDate', 1, String.raw`data (?:della |di )?(?:fattura|documento|emissione)|datum (?:van (?:de )?)?factuur`),
  rule('issueDate', 0.7, String.raw`datum|date|dated|le|data`),

  rule(
    'dueDate',
    1,
    String.raw`falligkeit(?:sdatum|stag|stermin)?|fallig(?: am| bis| zum)?|zahlbar bis(?: zum)?|zahlungsziel|zahlungstermin`,
  ),
  rule(
    'dueDate',
    1,
    String.raw`(?:payment )?due(?: date| on| by)?|payable (?:by|until|on)|pay by|date d'echeance|echeance|a payer avant le|date limite de (?:paiement|reglement)(?: le)?|vervaldatum|vervaldag|te betalen voor|(?:uiterste )?betaaldatum`,
  ),
  rule('dueDate', 1, String.raw`(?:data (?:di )?)?scadenza(?: (?:del )?pagamento)?|(?:da pagare|pagamento) entro(?: il)?`),
  rule(
    'dueDate',
    0.8,
    String.raw`(?:bitte )?(?:uberweisen|zahlen|begleichen) sie (?:den betrag )?(?:bis )?(?:zum|spatestens)?|please (?:pay|remit)(?: until| by| before)?|(?:total )?(?:amount|balance) due (?:on|by)|zahlbar (?:innerhalb \d+ tagen )?(?:netto )?(?:bis(?: zum)?|zum|am|spatestens(?: am| bis| zum)?)|netto bis(?: zum)?`,
    true,
  ),
  // SEPA pre-notifications name the debit day in a sentence: "Der Betrag in Höhe von EUR 529,87 wird am 20.03.2014 … eingezogen".
  rule('dueDate', 0.8, String.raw`betrag[^.]{0,40}? wird am|(?:zu der|zur) falligkeit(?: am)?`, true),

  rule(
    'deliveryDate',
    1,
    String.raw`(?:liefer|leistungs|liefer- und leistungs|liefer-/leistungs)[- ]?(?:datum|zeitpunkt)|liefertag|leistungstag`,
  ),
  rule(
    'deliveryDate',
    1,
    String.raw`(?:delivery|service|shipping|supply) date|date of (?:delivery|service|supply)|date de (?:livraison|prestation)|leverdatum|leveringsdatum|datum (?:van )?levering|data (?:di |della )?(?:consegna|prestazione)`,
  ),

  rule(
    'orderReference',
    1,
    String.raw`(?:ihre )?bestell(?:ung)?[- ]?${NO}|ihre bestellung(?: vom)?|bestellnummer|bestellung|bestellreferenz`,
  ),
  rule(
    'orderReference',
    1,
    String.raw`(?:your |purchase |customer )?order(?: ${NO}| reference| ref\.?)|your order|purchase order|p\.?o\.?(?: ${NO})`,
  ),
  rule(
    'orderReference',
    1,
    String.raw`(?:${NO}|ref(?:erence)?\.?) (?:de )?commande|bon de commande|votre commande|commande|order ?nummer|inkoopordernummer|uw order|uw bestelling|bestelnummer`,
  ),
  rule(
    'orderReference',
    1,
    String.raw`ordine(?: n\.?| nr\.?| numero)|(?:numero|n\.) (?:d')?ordine|(?:vs\.?|vostro) ordine|rif(?:\.|erimento) (?:vs\.? )?ordine`,
  ),
  rule(
    'orderReference',
    0.8,
    String.raw`bestellung ${NO}|bestellnummer|order ${NO}|purchase order(?: ${NO})?|(?:${NO}) de commande|commande ${NO}`,
    true,
  ),

  rule(
    'buyerReference',
    1,
    String.raw`ihr zeichen|ihre referenz|ihre zeichen|kauferreferenz|referenz des kaufers|leitwege?-?id|buyer reference|buyer ref\.?|customer ref(?:erence|\.)|reference client|reference acheteur|ref\.? acheteur|uw referentie|referentie koper|rif(?:\.|erimento) (?:cliente|acquirente)`,
  ),
  // Insurers' invoices: the policy number the payer must quote ("… VSNR: 01.234.567.8 (bei Zahlung bitte angeben)").
  rule('buyerReference', 0.8, String.raw`vsnr|versicherungsschein[- ]?(?:nummer|nr\.?)`, true),
  // "Your reference" on an English or French invoice: the customer's order, or its reference where the order has a label of its own.
  rule('yourReference', 0.9, String.raw`your ref(?:erence|\.)?|votre reference|votre ref\.?`),
  rule(
    'contractReference',
    1,
    String.raw`vertrags?(?:nummer|[- ]?nr\.?)?|contract(?: ${NO}| reference)?|agreement(?: ref\.?| ${NO})?|(?:${NO} de )?contrat|ref(?:erence)?\.? (?:du |de )?contrat|ref(?:erence)?\.? (?:du )?marche|marche|contract ?nummer|overeenkomst|contratto(?: n\.?| nr\.?)?|numero (?:di )?contratto|rif\.? contratto`,
  ),
  rule(
    'customerNumber',
    1,
    String.raw`kunden[- ]?${NO}|kundennummer|customer(?: ${NO}| account)?|account ${NO}|(?:${NO}|code) client|client ${NO}|klant ?nummer|klant[- ]?${NO}|debit(?:or|eur)(?:en)?[- ]?${NO}|kd\.?[- ]?${NO}|(?:codice|cod\.) cliente|(?:n\.|nr\.|numero) cliente`,
  ),
  rule(
    'taxNumber',
    1,
    String.raw`steuer[- ]?${NO}|st\.?[- ]?nr\.?|tax (?:${NO}|reference)|steuernummer|${NO} fiscal|fiscal (?:${NO}|code)|codice fiscale|cod\. ?fisc(?:ale|\.)|c\.f\.|fiscaal nummer|rsin`,
  ),
  // The invoice's currency, not the one its VAT is booked in ("Währung der Umsatzsteuerbuchung", BT-6).
  rule(
    'currency',
    1,
    String.raw`(?:rechnungs)?wahrung(?! der (?:umsatz)?steuer)|(?:invoice )?currency|devise(?: de (?:la )?facture)?|betrage in|amounts in|montants en|valuta|importi in|divisa`,
  ),
  // Renderings of the XML print the type code itself: "Rechnungsart:  380 (Commercial invoice)".
  rule(
    'typeCode',
    1,
    String.raw`rechnungsart|rechnungstyp|art der rechnung|(?:invoice|document) type(?: code)?|type de (?:la )?facture|code (?:du )?type de (?:la )?facture|tipo (?:di )?documento|factuursoort`,
  ),
  // The invoice a correction or credit note refers to (BG-3): "Korrektur zur Rechnung Nr. 4711 vom …",
  // "for invoice No. 1234567889 from 12 Sep 2024", "This document refers to invoice INV-12345 dated …",
  // "Facture liée FA-2017-0010", "Avoir sur facture n° F-12", "Ursprungsbeleg-Nr". Not "Original invoice":
  // that is the original of a copy.
  rule(
    'precedingInvoice',
    1,
    String.raw`(?:ursprungs|bezugs)(?:rechnung|beleg)(?:s?[- ]?${NO})?|(?:nummer der |rechnungsnummer der )?(?:vorausgegangenen|vorhergehenden|ursprunglichen|korrigierten|stornierten) rechnung(?: ${NO})?|(?:korrektur|gutschrift|storno|stornierung|berichtigung)(?:rechnung)? (?:zu[rm]?|der|fur|auf) (?:der |die )?rechnung(?: ${NO})?|(?:bezug(?:nehmend)? auf|zu[rm]?) (?:der |die |unsere[rn]? )?rechnung ${NO}|(?:preceding|previous|referenced|related|initial) invoice(?: ${NO}| reference)|(?:for|to|against|correcting|crediting|concerning|regarding) (?:the |our )?invoice ${NO}|(?:this (?:document|credit note|invoice) )?refers to (?:the |our )?invoice(?: ${NO})?|(?:(?:diese[rs]? )?(?:dokument|beleg|gutschrift|rechnung) )?bezieht sich auf (?:die |unsere )?rechnung(?: ${NO})?|facture (?:d'origine|initiale|rectifiee|precedente|liee|de reference|concernee)(?: ${NO})?|(?:avoir|rectificatif|rectification|annulation) (?:sur|de|a) (?:la )?facture(?: ${NO})?|(?:sur|de|a) (?:la )?facture ${NO}`,
  ),
  rule(
    'paymentTerms',
    1,
    String.raw`skontovereinbarung|zahlungsbedingung(?:en)?|zahlungskonditionen|payment terms|terms of payment|conditions de (?:paiement|reglement)|modalites de (?:paiement|reglement)|condizioni di pagamento|termini di pagamento|betalingsvoorwaarden|betalingscondities`,
  ),
];

/**
 * Labels of what the analysis does not read but info strips print beside the fields it does
 * (a contact person): labels all the same, so never the value of their neighbour.
 */
export const OTHER_LABELS =
  /^(?:(?:ihr |unser )?ansprechpartner(?:in)?|(?:sach)?bearbeiter(?:in)?|kontakt|(?:your |our )?contact(?: person)?|votre (?:contact|interlocuteur)|interlocuteur|contactpersoon|uw contactpersoon|referente|contatto|persona di riferimento)$/;

export type PartyRole = 'seller' | 'buyer' | 'deliverTo';

/**
 * Headings over an address block as printed, per role. The whole heading must be the label (so
 * "Lieferant GmbH" is a name, "Lieferant:" a label); it is matched folded, spaces optional.
 */
export const PARTY_LABEL_TEXTS: Readonly<Record<PartyRole, readonly string[]>> = {
  buyer: [
    'Rechnungsempfänger',
    'Rechnungempfänger',
    'Rechnungsadresse',
    'Rechnungadresse',
    'Rechnungsanschrift',
    'Rechnunganschrift',
    'Käufer',
    'Kunde',
    'Auftraggeber',
    'Leistungsempfänger',
    'Bill to',
    'Billed to',
    'Invoice to',
    'Invoiced to',
    'Sold to',
    'Customer',
    'Client',
    'Buyer',
    'Bill to address',
    'Facturé à',
    'Facturer à',
    'Adresse de facturation',
    'Destinataire',
    'Acheteur',
    'Klant',
    'Factuuradres',
    'Koper',
    'Afnemer',
    'Aan',
    'Cessionario',
    'Committente',
    'Cessionario / committente',
    'Cessionario committente',
    'Destinatario',
    'Cliente',
    'Spett.le',
    'Spettabile',
    'Acquirente',
  ],
  seller: [
    'Rechnungsersteller',
    'Rechnungssteller',
    'Rechnungsaussteller',
    'Verkäufer',
    'Lieferant',
    'Leistungserbringer',
    'Auftragnehmer',
    'Seller',
    'Supplier',
    'Vendor',
    'From',
    'Issuer',
    'Service provider',
    'Provider',
    'Sold by',
    'Billed by',
    'Vendeur',
    'Fournisseur',
    'Émetteur',
    'Prestataire',
    'Verkoper',
    'Leverancier',
    'Van',
    'Cedente',
    'Prestatore',
    'Cedente / prestatore',
    'Cedente prestatore',
    'Fornitore',
    'Mittente',
    'Venditore',
  ],
  deliverTo: [
    'Lieferanschrift',
    'Lieferadresse',
    'Leistungsadresse',
    'Leistungsanschrift',
    'Leistungsort',
    'Lieferort',
    'Warenempfänger',
    'Lieferung an',
    'Ship to',
    'Shipped to',
    'Deliver to',
    'Delivered to',
    'Delivery to',
    'Delivery address',
    'Adresse de livraison',
    'Livré à',
    'Livraison',
    'Afleveradres',
    'Leveradres',
    'Bezorgadres',
    'Destinazione',
    'Destinazione merce',
    'Luogo di consegna',
    'Indirizzo di consegna',
    'Consegna a',
  ],
};

/** Words that qualify a party heading without changing its role. */
const QUALIFIER = '(?:abweichende[rs]?|alternative|alternate|autre|andere[rs]?)';

/** Words that introduce a party heading in forms ("Informationen zum Käufer", "Details of the seller", "Informations sur le vendeur"). */
const INTRO =
  "(?:(?:informationen|angaben|daten|details?|information|informations|coordonnees|donnees|gegevens|dati)\\s+(?:zum|zur|zu|des|der|dem|den|about(?: the)?|of(?: the)?|on(?: the)?|du|de la|de l'|des|sur (?:le|la|l')|sur|van(?: de)?|del(?:la|l')?|di)\\s*)";

const escapeRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same labels as patterns on folded text. */
export const PARTY_LABELS: ReadonlyArray<[PartyRole, RegExp]> = (
  Object.entries(PARTY_LABEL_TEXTS) as Array<[PartyRole, readonly string[]]>
).map(([role, texts]) => {
  const one = `(?:${texts.map((t) => escapeRe(fold(t)).replace(/\s+/g, '\\s*')).join('|')})`;
  // Readable renderings join two names of one role ("Käufer/Leistungsempfänger") and qualify a
  // heading ("Abweichender Warenempfänger", "Alternative delivery address"): still that role's label.
  return [role, new RegExp(`^${INTRO}?(?:${QUALIFIER}\\s*)?${one}(?:\\s*[/&,]\\s*${one})*$`)];
});

/**
 * The one-word party labels, for recognising them where a scan misread a letter or two
 * ("Verkiinfer" for "Verkäufer", "Kiufer" for "Käufer"). No words under six letters: they are too near other words.
 */
export const PARTY_LABEL_WORDS: ReadonlyArray<[PartyRole, string]> = [
  ['buyer', 'rechnungsempfanger'],
  ['buyer', 'rechnungsadresse'],
  ['buyer', 'rechnungsanschrift'],
  ['buyer', 'auftraggeber'],
  ['buyer', 'leistungsempfanger'],
  ['buyer', 'destinataire'],
  ['buyer', 'acheteur'],
  ['buyer', 'customer'],
  ['buyer', 'kaufer'],
  ['seller', 'verkaufer'],
  ['seller', 'lieferant'],
  ['seller', 'rechnungssteller'],
  ['seller', 'leistungserbringer'],
  ['seller', 'auftragnehmer'],
  ['seller', 'fournisseur'],
  ['seller', 'supplier'],
  ['deliverTo', 'warenempfanger'],
  ['deliverTo', 'lieferanschrift'],
  ['deliverTo', 'lieferadresse'],
];

/**
 * Words that stand where a name goes on templates and in headings ("LOGO LE FOURNISSEUR",
 * "Customer name", "Trade name"), folded. A name made only of these (and the little words below)
 * names no one. Whole words only, and a legal form makes it a name: "Customer Care Solutions
 * GmbH" and "Lieferant GmbH" are companies.
 */
export const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set([
  // en
  ...['logo', 'seller', 'buyer', 'supplier', 'vendor', 'customer', 'client', 'company', 'business', 'trade', 'trading', 'legal'],
  ...['registered', 'contact', 'name', 'address', 'sender', 'recipient', 'sample', 'example', 'placeholder'],
  // de
  ...['verkaufer', 'kaufer', 'lieferant', 'kunde', 'firma', 'firmenname', 'unternehmen', 'anschrift', 'absender', 'empfanger'],
  ...['muster', 'beispiel'],
  // fr
  ...['fournisseur', 'vendeur', 'acheteur', 'societe', 'entreprise', 'nom', 'raison', 'sociale', 'adresse', 'expediteur'],
  ...['destinataire'],
  // nl, it
  ...['naam', 'leverancier', 'klant', 'fornitore', 'cliente', 'nome', 'ditta'],
]);

/** Articles, possessives and number words that join placeholder and title words ("Your company name", "Tax invoice no."). */
export const LITTLE_WORDS: ReadonlySet<string> = new Set([
  ...['the', 'a', 'an', 'of', 'your', 'our', 'here', 'tax', 'no', 'nr', 'n', 'number', 'copy', 'original'],
  ...['der', 'die', 'das', 'des', 'ihr', 'ihre', 'unser', 'unsere', 'hier', 'nummer', 'kopie'],
  ...['le', 'la', 'les', 'l', 'de', 'du', 'd', 'votre', 'notre', 'ici', 'numero'],
  ...['het', 'een', 'uw', 'il', 'lo', 'di'],
]);

/** Labels beside a VAT identifier that make it the buyer's. */
export const BUYER_ID_CONTEXT = /ihre|your|kunde|customer|client|buyer|kaufer|acheteur|votre|uw |empfanger|destinataire|leistungsempfanger/;

/** The label of a VAT category's code where a breakdown is printed as labelled values ("Umsatzsteuerkategorie: E"), folded. */
export const VAT_CATEGORY_LABEL = /^(?:umsatzsteuerkategorie|steuerkategorie|vat category|tax category|categorie de tva)\s*:/;

export type TotalField = 'lineTotal' | 'allowances' | 'charges' | 'netTotal' | 'vatTotal' | 'grossTotal' | 'paid' | 'rounding' | 'due';

/**
 * Labels of the totals box. Order matters: the first rule whose pattern occurs in the label
 * text decides, so "Rechnungssumme Netto" is net before it can be gross, and "Gesamtbetrag der
 * Zuschläge" a charge before "Gesamtbetrag" makes it gross.
 */
export const TOTAL_LABELS: ReadonlyArray<{ fields: TotalField[]; pattern: RegExp }> = [
  // What is owed to third parties (XRechnung's "Summe Fremdforderungen") is none of the totals.
  { fields: [], pattern: /fremdforderung|third[- ]party/ },
  { fields: ['rounding'], pattern: /rundungsbetrag|rundungsdifferenz|\brundung\b|\brounding\b|arrondi|afronding|arrotondamento/ },
  {
    fields: ['paid'],
    pattern:
      /bereits (?:bezahlt|gezahlt|erhalten)|vorausbezahlt|gezahlte?r? betrag|anzahlung|vorauszahlung|erhaltene|geleistete|\bpaid\b|prepaid|prepayment|payments? received|deposit|acompte|deja (?:paye|regle)|avance recue|betaald|abschlagszahlung|less payments?|accont[oi]|gia (?:pagat|versat)|aanbetaling|voldaan/,
  },
  {
    fields: ['due'],
    pattern:
      /zahlbetrag|zu zahlen|zahlungsbetrag|offene?r? (?:betrag|posten|summe)|restbetrag|noch offen|amount due|balance due|open amount|outstanding|total due|due payable|payable amount|amount payable|\bbalance\b|net a payer|reste a payer|montant du|a payer|residual|te betalen|verbleibend|zahlbar|fallige?r? betrag|please pay|da pagare|a pagare|dovuto|openstaand/,
  },
  {
    fields: ['lineTotal', 'netTotal'],
    pattern:
      /positionssumme|summe (?:der |aller )?positionen|zwischensumme|sub-?total|sous-?total|warenwert|total (?:des )?lignes|line total|artikelsumme|subtotaal|leistungssumme|sum of (?:the )?lines|items total|total articles|totale (?:righe|merce)|subtotale|totaal regels/,
  },
  {
    fields: ['netTotal'],
    pattern:
      /netto|\bnet\b|\bexcl|\bexkl|ohne (?:ust|mwst|umsatzsteuer|steuer)|w\/o|without (?:vat|tax|sales tax)|sans tva|senza iva|zonder btw|hors tax|\bht\b|steuerbasis|taxable|exclusief|before tax|pre-tax|zu versteuern|bemessungsgrundlage|base imposable|imponibile|grondslag|maatstaf/,
  },
  { fields: ['allowances'], pattern: /rabatt|nachlass|abschlag|skonto|discount|allowance|remise|reduction|abzgl|korting/ },
  {
    fields: ['charges'],
    pattern:
      /zuschlag|aufschlag|fracht|versand|\bporto\b|verpackung|transport|shipping|freight|frais|surcharge|handling|verzendkosten|(?<!reverse |free of |no )\bcharges?\b/,
  },
  {
    fields: ['vatTotal'],
    pattern:
      /^(?!.*(?:inkl|incl|ttc|brutto|gross|with|including|y compris|comprises|inclusa))(?:.*(?:\bust\b|ust\.|mwst|umsatzsteuer|mehrwertsteuer|\bvat\b|\btax(?:es)?\b|\btaxe?s?\b|\btva\b|\bbtw\b|steuer|iva\b|\bimposta\b))/,
  },
  {
    fields: ['grossTotal'],
    pattern:
      /brutto|rechnungsbeitrag|gesamt|rechnungsbetrag|rechnungssumme|endbetrag|endsumme|\bsumme\b|grand total|\btotal\b|invoice amount|inkl|incl|\bttc\b|totaal|montant|amount|totale|factuurbedrag|\bbruto\b/,
  },
];

/** `grossAmount` is never a label's kind: a line-amount column that says it includes the tax, beside one that does not. */
export type ColumnKind =
  'position' | 'itemId' | 'description' | 'quantity' | 'unit' | 'unitPrice' | 'vatRate' | 'lineAmount' | 'grossAmount' | 'discount';

/** An amount column's label saying the amount includes the tax: "Total price with tax", "Betrag inkl. MwSt.", "Montant TTC". */
export const WITH_TAX =
  /\b(?:with|incl|inkl|including|inklusive|inclusief|avec)\b.*\b(?:tax|vat|mwst|ust|tva|btw|iva|steuer)|\bttc\b|\bbrutto\b|\bgross\b|\bbruto\b/;

/** Table header words, per column kind. Tested on each header cell's folded text. */
export const COLUMN_LABELS: ReadonlyArray<[ColumnKind, RegExp]> = [
  ['position', /^(?:pos\.?|position|pos\.?-?nr\.?|nr\.?|no\.?|n\.|#|lfd\.? ?nr\.?|item|ligne|n°|riga|regel)$/],
  [
    'itemId',
    /art(?:ikel)?\.?[- ]?(?:nr|nummer|no)|artikelnummer|item (?:no|number|code|id)|product (?:code|no|id)|sku|reference|ref\.?$|code|gtin|ean|art\.nr|mat(?:erial)?[- .]?nr|codice|^cod\.?(?: art(?:icolo|\.))?$|^articolo$/,
  ],
  [
    'description',
    /bezeichnung|beschreibung|artikel(?!nr|nummer|-nr)|leistung|produkt|produit|product|description|designation|libelle|article|omschrijving|beschrijving|descrizione|prodotto|servizio|text|item(?! no| number| code)|service|details?|dienst/,
  ],
  [
    'quantity',
    /menge|anzahl|\bqty\b|quantity|quantite|qte|quantita|q\.ta\b|\bqta\b|aantal|hoeveelheid|stuck|^anz\.?$|^mge\.?$|^aant\.?$|^units?$|^hours?$/,
  ],
  ['unit', /^(?:einheit|me|meng\.?-? ?einheit|mengeneinheit|unit|uom|unite|unita|u\.?m\.?|eenheid|eenh\.?|vke\/geb|vke)$|^meng\.?-?$/],
  [
    'unitPrice',
    /preis|price|prix|(?<!tax |vat |gst )rate(?!.*%)|tarif|\bp\.?u\.?\b|unit ?price|einzel|e-preis|ep\b|stuckpreis|vk-preis|prijs|nettopreis|prezzo|importo unit|\bcost\b/,
  ],
  ['vatRate', /ust|mwst|vat|tva|steuer|tax|btw|\biva\b|aliq|%/],
  [
    'lineAmount',
    /betrag|gesamt|summe|total|amount|montant|entgelt|nettowert|zeilenbetrag|wert|bedrag|totaal|importo(?! unit)|imponibile|grondslag|maatstaf|\bbruto\b|line total|extended|net$|^netto$/,
  ],
  ['discount', /rabatt|discount|remise|disc\.?|korting|nachlass|zuschlag|allowance|majoration|toeslag/],
];

/** An allowance or a charge on one item, printed as a row under it ("Abschlag  Lagerware  -100,00"). */
export const LINE_ALLOWANCE = /^(?:abschlag|abzgl|abzuglich|rabatt|nachlass|discount|allowance|remise|reduction|korting)\b/;
export const LINE_CHARGE = /^(?:zuschlag|zzgl|zuzuglich|aufschlag|surcharge|charge|majoration|toeslag)\b/;

/** Lines that end a line-item table: the totals box starts. */
export const TABLE_END =
  /^(?:zwischensumme|summe|gesamt|total|sub-?total|sous-?total|nettobetrag|rechnungssumme|positionssumme|net total|total net|montant|gesamtbetrag|warenwert|ubertrag|carried forward|a reporter|endsumme|netto|invoice total|totaal|subtotaal|(?:vat|tax) (?:breakdown|summary|analysis)|breakdown (?:of )?(?:vat|tax)|recapitulatif (?:de la )?tva|ventilation (?:de la )?tva)/;

/** Labels a party's name is printed beside in key–value renderings ("Name:", "Firma", "Raison sociale"), folded, without their colon. */
export const NAME_LABEL =
  /^(?:(?:firmen|handels)?name|firma|company(?: name)?|trade name|raison sociale|nom|denomination|naam|bedrijfsnaam|ragione sociale|denominazione)$/;

export type KeyValuePartyField = 'name' | 'street' | 'address' | 'line2' | 'postcode' | 'city' | 'country' | 'identifier' | 'scheme';

/** The rows of a party section in key–value renderings, by their label (folded, without the colon). */
export const KEY_VALUE_PARTY_LABELS: ReadonlyArray<[KeyValuePartyField, RegExp]> = [
  ['name', NAME_LABEL],
  // One field each, however many lines its value wraps to; an address may hold the city line too.
  ['street', /^(?:adress(?:zeile|line) ?1|address line ?1|strasse ?\/ ?haus-?(?:nr\.?|nummer))$/],
  ['address', /^(?:anschrift|adresse|address|adres|indirizzo|strasse|street|rue|straat|via)$/],
  ['line2', /^(?:adresszusatz|adress(?:zeile|line) ?2|address line ?2)$/],
  ['postcode', /^(?:plz|postleitzahl|post ?code|postal code|zip(?: code)?|code postal|cp|postcode|cap)$/],
  ['city', /^(?:ort|stadt|city|town|location|ville|localite|plaats|woonplaats|citta|localita)$/],
  ['country', /^(?:land|landercode|country(?: code)?|pays|code pays|paese|nazione)$/],
  ['identifier', /^(?:nummer|kennung(?: ?\/ ?kunden-?(?:nr\.?|nummer))?|id|identifier|kunden-?nummer|lieferanten-?nummer|party id)$/],
  ['scheme', /^(?:schema der kennung|scheme identifier|identifier scheme|schema)$/],
];

/**
 * Words, and parts of words, that invoices print with diacritics, as printed: a scan's value that
 * spells one without them ("Leistungsempfanger", "Muller GmbH", "Reglement") lost its diacritics
 * to the recogniser. None is a word of another of our languages without them (not "référence",
 * "numéro", "Händler"); whole words are only those too short to be safe inside others ("für" in
 * "furniture").
 */
export const DIACRITIC_WORDS: readonly string[] = ['für', 'köln'];
export const DIACRITIC_STEMS: readonly string[] = [
  'käufer',
  'währung',
  'nachläss',
  'zuschläg',
  'empfänger',
  'beträg',
  'gebühr',
  'fällig',
  'prüf',
  'schlüssel',
  'müller',
  'geschäft',
  'lösung',
  'büro',
  'münchen',
  'düsseldorf',
  'nürnberg',
  'österreich',
  'échéance',
  'règlement',
  'quantité',
  'société',
  'quantità',
];
