import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { isLabel } from '../../src/analysis/header-fields.js';
import { scanVatIds, vatIdChecked } from '../../src/analysis/identifiers.js';
import { Decimal } from '../../src/invoice/decimal.js';
import type { Invoice, InvoiceLine } from '../../src/invoice/model.js';
import { embedFonts } from '../../src/render/fonts.js';
import { truthOf } from './corpus-truth.js';

/**
 * Synthetic invoice PDFs for a development set that is not the corpus the analysis is tuned on.
 *
 * The content is real: an EN 16931 invoice read from the XML of ../shared/corpus (xml-cii/,
 * xml-ubl/, xrechnung-testsuite/) with the product's own parser (corpus-truth.ts `truthOf`).
 * The layout is generated: a family (DIN 5008 letter, English "Bill to", French, Italian,
 * Dutch, per-rate summary table, boxed header) and, per seed, the language's label synonyms,
 * date and number formats, fonts and sizes, column order of the item table, VAT rows or a VAT
 * table, page breaks with repeated table headers, where bank details and VAT ids go, and which
 * optional values are printed at all.
 *
 * The truth is known by construction: every value drawn is recorded, and `printed` is the
 * invoice reduced to exactly those values (a due date the layout left out is not in it), so a
 * benchmark scores only what a reader of the page could see. Nothing is printed that the
 * invoice does not say (amounts, dates, names, codes all come from it; only layout words,
 * labels and fixed phrases in the page's language are added).
 *
 * Deterministic: the same invoice, family and seed give the same page text; with the
 * standard PDF fonts the same bytes (pdf-lib names embedded TrueType subsets randomly).
 *
 * The set itself is scripts/synthetic-seeds.json (source XML, family, seed per document);
 * `node dist-tools/scripts/bench-analysis.js --set generated` renders and scores it in memory.
 */

// ---------------------------------------------------------------- families, languages

export const FAMILIES = ['din5008', 'en-billto', 'fr-facture', 'it-fattura', 'nl-factuur', 'modern-summary', 'boxed-header'] as const;
export type Family = (typeof FAMILIES)[number];
/** Layouts the analysis' rules were not written on: tune on the others, measure on these. */
export const HELD_OUT: ReadonlySet<Family> = new Set<Family>(['nl-factuur', 'boxed-header']);

export type Lang = 'de' | 'en' | 'fr' | 'it' | 'nl';
const LANGS: readonly Lang[] = ['de', 'en', 'fr', 'it', 'nl'];

type LabelKey =
  | 'invoice'
  | 'creditNote'
  | 'corrected'
  | 'selfBilled'
  | 'invoiceNumber'
  | 'creditNumber'
  | 'issueDate'
  | 'dueDate'
  | 'deliveryDate'
  | 'period'
  | 'customerNumber'
  | 'buyerReference'
  | 'orderReference'
  | 'contractReference'
  | 'vatId'
  | 'buyerVatId'
  | 'taxNumber'
  | 'registration'
  | 'contact'
  | 'phone'
  | 'email'
  | 'bic'
  | 'bank'
  | 'accountHolder'
  | 'payee'
  | 'billTo'
  | 'shipTo'
  | 'from'
  | 'pos'
  | 'sku'
  | 'desc'
  | 'qty'
  | 'unit'
  | 'price'
  | 'vatRate'
  | 'amount'
  | 'lineTotal'
  | 'allowance'
  | 'charge'
  | 'allowanceSum'
  | 'chargeSum'
  | 'netTotal'
  | 'vat'
  | 'on'
  | 'vatTotal'
  | 'grossTotal'
  | 'paid'
  | 'rounding'
  | 'due'
  | 'rate'
  | 'base'
  | 'tax'
  | 'gross'
  | 'category'
  | 'vatSummary'
  | 'page'
  | 'continued'
  | 'currencyNote'
  | 'paymentTerms'
  | 'notes'
  | 'intro'
  | 'pay'
  | 'of';

type Vocab = Record<LabelKey, readonly string[]>;

/** Label synonyms per language; `{n}`, `{m}`, `{cur}`, `{amount}`, `{date}`, `{iban}` are filled in. */
const VOCAB: Record<Lang, Vocab> = {
  de: {
    invoice: ['Rechnung', 'RECHNUNG'],
    creditNote: ['Gutschrift', 'GUTSCHRIFT', 'Rechnungskorrektur (Gutschrift)'],
    corrected: ['Rechnungskorrektur', 'Korrekturrechnung'],
    selfBilled: ['Gutschrift im Gutschriftsverfahren', 'Selbstfakturierte Rechnung'],
    invoiceNumber: ['Rechnungsnummer', 'Rechnung Nr.', 'Rechnungs-Nr.', 'Beleg-Nr.', 'Re.-Nr.', 'Belegnummer'],
    creditNumber: ['Gutschriftsnummer', 'Gutschrift Nr.', 'Beleg-Nr.'],
    issueDate: ['Rechnungsdatum', 'Datum', 'Belegdatum', 'Ausstellungsdatum'],
    dueDate: ['Fällig am', 'Fälligkeitsdatum', 'Zahlbar bis', 'Zahlungsziel'],
    deliveryDate: ['Lieferdatum', 'Leistungsdatum', 'Liefer-/Leistungsdatum', 'Leistungszeitpunkt'],
    period: ['Leistungszeitraum', 'Abrechnungszeitraum'],
    customerNumber: ['Kundennummer', 'Kunden-Nr.', 'Kd.-Nr.', 'Debitorennummer'],
    buyerReference: ['Ihr Zeichen', 'Ihre Referenz', 'Leitweg-ID', 'Käuferreferenz'],
    orderReference: ['Bestellnummer', 'Ihre Bestellung', 'Bestell-Nr.', 'Ihre Bestellnummer'],
    contractReference: ['Vertragsnummer', 'Vertrag', 'Vertrags-Nr.'],
    vatId: ['USt-IdNr.', 'USt.-ID', 'Umsatzsteuer-ID', 'UID-Nr.'],
    buyerVatId: ['Ihre USt-IdNr.', 'USt-IdNr. Kunde', 'USt-IdNr. des Leistungsempfängers'],
    taxNumber: ['Steuernummer', 'St.-Nr.', 'Steuer-Nr.'],
    registration: ['Handelsregister', 'Registernummer', 'HR-Nr.'],
    contact: ['Ansprechpartner', 'Ihr Ansprechpartner', 'Bearbeiter'],
    phone: ['Tel.', 'Telefon', 'Fon'],
    email: ['E-Mail', 'Mail'],
    bic: ['BIC', 'SWIFT-BIC'],
    bank: ['Bankverbindung', 'Bank', 'Kontoverbindung'],
    accountHolder: ['Kontoinhaber', 'Inhaber'],
    payee: ['Zahlungsempfänger', 'Abweichender Zahlungsempfänger'],
    billTo: ['Rechnungsempfänger', 'Rechnungsanschrift', 'Kunde'],
    shipTo: ['Lieferanschrift', 'Lieferadresse', 'Warenempfänger'],
    from: ['Rechnungssteller', 'Lieferant', 'Verkäufer'],
    pos: ['Pos.', 'Pos', 'Nr.'],
    sku: ['Art.-Nr.', 'Artikelnr.', 'Artikel'],
    desc: ['Bezeichnung', 'Beschreibung', 'Artikel / Leistung', 'Leistung', 'Artikelbezeichnung'],
    qty: ['Menge', 'Anzahl', 'Anz.', 'Mge.'],
    unit: ['Einheit', 'ME', 'Eh.'],
    price: ['Einzelpreis', 'Preis', 'E-Preis', 'Stückpreis', 'Preis/Einheit'],
    vatRate: ['USt.', 'MwSt.', 'USt-Satz', 'MwSt %', 'Steuer'],
    amount: ['Gesamt', 'Betrag', 'Gesamtpreis', 'Summe', 'Netto'],
    lineTotal: ['Summe Positionen', 'Warenwert', 'Zwischensumme', 'Positionssumme'],
    allowance: ['Rabatt', 'Nachlass', 'abzgl. Rabatt', 'Abschlag'],
    charge: ['Zuschlag', 'zzgl. Zuschlag', 'Aufschlag', 'Nebenkosten'],
    allowanceSum: ['Summe Nachlässe', 'Rabatte gesamt'],
    chargeSum: ['Summe Zuschläge', 'Zuschläge gesamt'],
    netTotal: ['Nettobetrag', 'Summe netto', 'Gesamt netto', 'Rechnungsbetrag netto'],
    vat: ['USt.', 'MwSt.', 'Umsatzsteuer', 'zzgl. USt.'],
    on: ['auf', 'von'],
    vatTotal: ['Summe USt.', 'Umsatzsteuer gesamt', 'MwSt. gesamt'],
    grossTotal: ['Gesamtbetrag', 'Rechnungsbetrag', 'Summe brutto', 'Endbetrag', 'Gesamtsumme'],
    paid: ['Bereits bezahlt', 'Anzahlung', 'abzgl. Anzahlung', 'Geleistete Zahlungen'],
    rounding: ['Rundung', 'Rundungsdifferenz'],
    due: ['Zahlbetrag', 'Offener Betrag', 'Zu zahlen', 'Fälliger Betrag', 'Restbetrag'],
    rate: ['USt-Satz', 'Steuersatz', 'MwSt.-Satz'],
    base: ['Netto', 'Nettobetrag', 'Bemessungsgrundlage'],
    tax: ['USt.', 'Steuer', 'MwSt.-Betrag'],
    gross: ['Brutto', 'Bruttobetrag'],
    category: ['Kat.', 'Kategorie'],
    vatSummary: ['USt-Aufstellung', 'Steuerübersicht'],
    page: ['Seite {n} von {m}', 'Seite {n}/{m}'],
    continued: ['Fortsetzung auf der nächsten Seite', 'Übertrag auf Seite {n}'],
    currencyNote: ['Alle Beträge in {cur}', 'Währung: {cur}'],
    paymentTerms: ['Zahlungsbedingungen', 'Zahlungsbedingung'],
    notes: ['Hinweise', 'Bemerkungen'],
    intro: [
      'Sehr geehrte Damen und Herren, für unsere Leistungen berechnen wir Ihnen:',
      'Vielen Dank für Ihren Auftrag. Wir berechnen Ihnen wie folgt:',
    ],
    pay: [
      'Bitte überweisen Sie den Betrag von {amount} bis zum {date} auf das Konto IBAN {iban}.',
      'Bitte zahlen Sie {amount} bis {date} auf IBAN {iban}.',
    ],
    of: ['von'],
  },
  en: {
    invoice: ['Invoice', 'INVOICE', 'Tax Invoice'],
    creditNote: ['Credit note', 'CREDIT NOTE', 'Credit Memo'],
    corrected: ['Corrected invoice', 'Corrective invoice'],
    selfBilled: ['Self-billed invoice', 'Self-billing invoice'],
    invoiceNumber: ['Invoice No.', 'Invoice #', 'Invoice number', 'Invoice Nr', 'Document No.'],
    creditNumber: ['Credit note No.', 'Credit note number', 'Document No.'],
    issueDate: ['Invoice date', 'Date', 'Date of issue', 'Issue date'],
    dueDate: ['Due date', 'Payment due', 'Due', 'Pay by'],
    deliveryDate: ['Delivery date', 'Date of supply', 'Service date', 'Shipping date'],
    period: ['Service period', 'Billing period'],
    customerNumber: ['Customer No.', 'Customer ID', 'Account No.', 'Customer number'],
    buyerReference: ['Buyer reference', 'Buyer ref.', 'Customer reference'],
    orderReference: ['PO number', 'Purchase order', 'Order No.', 'Your order'],
    contractReference: ['Contract No.', 'Contract', 'Contract reference'],
    vatId: ['VAT No.', 'VAT ID', 'VAT reg. no.', 'VAT number'],
    buyerVatId: ['Customer VAT No.', 'Your VAT No.', 'Buyer VAT ID'],
    taxNumber: ['Tax No.', 'Tax number', 'Tax ID'],
    registration: ['Company No.', 'Company registration', 'Reg. No.'],
    contact: ['Contact', 'Contact person', 'Your contact'],
    phone: ['Tel', 'Phone', 'T'],
    email: ['Email', 'E-mail', 'E'],
    bic: ['BIC', 'SWIFT', 'SWIFT/BIC'],
    bank: ['Bank details', 'Payment details', 'Bank'],
    accountHolder: ['Account name', 'Account holder'],
    payee: ['Payee', 'Pay to'],
    billTo: ['Bill to', 'Billed to', 'Invoice to', 'Customer'],
    shipTo: ['Ship to', 'Deliver to', 'Delivery address'],
    from: ['From', 'Seller', 'Supplier'],
    pos: ['#', 'Item', 'No.', 'Line'],
    sku: ['SKU', 'Item code', 'Part No.', 'Code'],
    desc: ['Description', 'Item', 'Product / Service', 'Details'],
    qty: ['Qty', 'Quantity', 'Units', 'Qty.'],
    unit: ['Unit', 'UoM', 'U/M'],
    price: ['Unit price', 'Price', 'Rate', 'Unit cost'],
    vatRate: ['VAT', 'VAT %', 'Tax', 'Tax rate'],
    amount: ['Amount', 'Total', 'Line total', 'Net amount'],
    lineTotal: ['Subtotal', 'Items total', 'Sum of lines'],
    allowance: ['Discount', 'Allowance', 'Less discount'],
    charge: ['Charge', 'Surcharge', 'Additional charge'],
    allowanceSum: ['Total discounts', 'Discounts'],
    chargeSum: ['Total charges', 'Charges'],
    netTotal: ['Net total', 'Total excl. VAT', 'Total net', 'Subtotal excl. VAT'],
    vat: ['VAT', 'VAT @', 'Tax'],
    on: ['on', 'of'],
    vatTotal: ['Total VAT', 'VAT total', 'Total tax'],
    grossTotal: ['Total', 'Invoice total', 'Total incl. VAT', 'Grand total'],
    paid: ['Amount paid', 'Paid', 'Less payments', 'Prepaid'],
    rounding: ['Rounding', 'Rounding adjustment'],
    due: ['Amount due', 'Balance due', 'Total due', 'Please pay'],
    rate: ['VAT rate', 'Rate'],
    base: ['Net', 'Taxable amount', 'Net amount'],
    tax: ['VAT', 'Tax', 'VAT amount'],
    gross: ['Gross', 'Total'],
    category: ['Cat.', 'Code'],
    vatSummary: ['VAT summary', 'Tax summary'],
    page: ['Page {n} of {m}', 'Page {n}/{m}'],
    continued: ['Continued on next page', 'Continued on page {n}'],
    currencyNote: ['All amounts in {cur}', 'Currency: {cur}'],
    paymentTerms: ['Payment terms', 'Terms'],
    notes: ['Notes', 'Remarks'],
    intro: ['Thank you for your business.', 'We are pleased to invoice you for the following:'],
    pay: ['Please transfer {amount} by {date} to IBAN {iban}.', 'Please pay {amount} no later than {date} to our account IBAN {iban}.'],
    of: ['of'],
  },
  fr: {
    invoice: ['Facture', 'FACTURE'],
    creditNote: ['Avoir', 'AVOIR', "Facture d'avoir"],
    corrected: ['Facture rectificative', 'Facture corrective'],
    selfBilled: ['Autofacturation', 'Facture émise par le client (autofacturation)'],
    invoiceNumber: ['Facture n°', 'N° de facture', 'Numéro de facture', 'Réf. facture'],
    creditNumber: ['Avoir n°', "N° d'avoir", "Numéro d'avoir"],
    issueDate: ['Date de facture', 'Date', "Date d'émission", 'Date de facturation'],
    dueDate: ["Date d'échéance", 'Échéance', 'À payer avant le'],
    deliveryDate: ['Date de livraison', 'Date de prestation'],
    period: ['Période de facturation', 'Période'],
    customerNumber: ['N° client', 'Code client', 'Réf. client'],
    buyerReference: ['Référence acheteur', 'Référence client', 'Réf. acheteur'],
    orderReference: ['Bon de commande', 'N° de commande', 'Votre commande'],
    contractReference: ['N° de contrat', 'Contrat', 'Référence contrat'],
    vatId: ['TVA intracom.', 'N° TVA', 'TVA intracommunautaire', 'N° de TVA'],
    buyerVatId: ['TVA client', 'Votre N° TVA', 'N° TVA client'],
    taxNumber: ['N° fiscal', 'Numéro fiscal'],
    registration: ['SIRET', 'RCS', 'SIREN'],
    contact: ['Contact', 'Interlocuteur', 'Votre contact'],
    phone: ['Tél.', 'Téléphone', 'Tél'],
    email: ['E-mail', 'Courriel', 'Email'],
    bic: ['BIC', 'Code BIC'],
    bank: ['Coordonnées bancaires', 'Banque', 'Règlement par virement'],
    accountHolder: ['Titulaire du compte', 'Titulaire'],
    payee: ['Bénéficiaire', 'Payer à'],
    billTo: ['Facturé à', 'Client', 'Adresse de facturation'],
    shipTo: ['Adresse de livraison', 'Livré à', 'Livraison'],
    from: ['Émetteur', 'Vendeur', 'Fournisseur'],
    pos: ['N°', 'Pos.', 'Ligne'],
    sku: ['Référence', 'Code article', 'Réf.'],
    desc: ['Désignation', 'Description', 'Libellé'],
    qty: ['Qté', 'Quantité'],
    unit: ['Unité', 'U.'],
    price: ['Prix unitaire', 'P.U. HT', 'Prix unit. HT', 'PU HT'],
    vatRate: ['TVA', 'Taux TVA', 'TVA %'],
    amount: ['Montant HT', 'Total HT', 'Montant'],
    lineTotal: ['Sous-total', 'Total des lignes', 'Total articles HT'],
    allowance: ['Remise', 'Rabais', 'Remise globale'],
    charge: ['Frais', 'Majoration', 'Frais supplémentaires'],
    allowanceSum: ['Total remises', 'Remises'],
    chargeSum: ['Total frais', 'Frais totaux'],
    netTotal: ['Total HT', 'Montant HT', 'Total hors taxes'],
    vat: ['TVA', 'T.V.A.'],
    on: ['sur', 'de'],
    vatTotal: ['Total TVA', 'Montant TVA'],
    grossTotal: ['Total TTC', 'Montant TTC', 'Total toutes taxes comprises'],
    paid: ['Acompte versé', 'Déjà réglé', 'Acompte'],
    rounding: ['Arrondi', "Écart d'arrondi"],
    due: ['Net à payer', 'Reste à payer', 'Montant dû'],
    rate: ['Taux', 'Taux TVA'],
    base: ['Base HT', 'Montant HT', 'Base'],
    tax: ['Montant TVA', 'TVA'],
    gross: ['Total TTC', 'TTC'],
    category: ['Cat.', 'Code'],
    vatSummary: ['Récapitulatif TVA', 'Détail TVA'],
    page: ['Page {n}/{m}', 'Page {n} sur {m}'],
    continued: ['Suite page suivante', 'Suite en page {n}'],
    currencyNote: ['Montants exprimés en {cur}', 'Devise : {cur}'],
    paymentTerms: ['Conditions de paiement', 'Conditions de règlement'],
    notes: ['Remarques', 'Mentions'],
    intro: ['Nous vous remercions de votre confiance.', 'Veuillez trouver ci-dessous le détail de notre facturation.'],
    pay: [
      'Merci de régler {amount} avant le {date} par virement sur le compte IBAN {iban}.',
      'Montant de {amount} à régler au plus tard le {date}, IBAN {iban}.',
    ],
    of: ['sur'],
  },
  it: {
    invoice: ['Fattura', 'FATTURA', 'Fattura differita'],
    creditNote: ['Nota di credito', 'NOTA DI CREDITO'],
    corrected: ['Fattura di rettifica', 'Fattura rettificativa'],
    selfBilled: ['Autofattura', 'Autofatturazione'],
    invoiceNumber: ['Fattura n.', 'Numero fattura', 'N. fattura', 'Numero documento', 'Documento n.'],
    creditNumber: ['Nota di credito n.', 'Numero nota di credito', 'Documento n.'],
    issueDate: ['Data fattura', 'Data', 'Data documento', 'Data di emissione'],
    dueDate: ['Scadenza', 'Data scadenza', 'Scadenza pagamento', 'Da pagare entro'],
    deliveryDate: ['Data consegna', 'Data di consegna', 'Data prestazione'],
    period: ['Periodo di riferimento', 'Periodo'],
    customerNumber: ['Codice cliente', 'Cod. cliente', 'N. cliente'],
    buyerReference: ['Riferimento cliente', 'Rif. acquirente', 'Riferimento acquirente'],
    orderReference: ['Ordine n.', 'Vs. ordine', 'Numero ordine', 'Rif. ordine'],
    contractReference: ['Contratto n.', 'Numero contratto', 'Rif. contratto'],
    vatId: ['P.IVA', 'Partita IVA', 'P. IVA', 'Part. IVA'],
    buyerVatId: ['P.IVA cliente', 'Partita IVA cliente'],
    taxNumber: ['Codice fiscale', 'C.F.'],
    registration: ['REA', 'Reg. Imprese', 'C.C.I.A.A.'],
    contact: ['Referente', 'Contatto'],
    phone: ['Tel.', 'Telefono'],
    email: ['E-mail', 'Email'],
    bic: ['BIC', 'SWIFT'],
    bank: ['Coordinate bancarie', "Banca d'appoggio", 'Modalità di pagamento: bonifico bancario'],
    accountHolder: ['Intestatario', 'Intestato a'],
    payee: ['Beneficiario', 'Pagamento a favore di'],
    billTo: ['Cessionario / committente', 'Cliente', 'Destinatario', 'Spett.le'],
    shipTo: ['Destinazione merce', 'Luogo di consegna', 'Indirizzo di consegna'],
    from: ['Cedente / prestatore', 'Fornitore', 'Mittente'],
    pos: ['Pos.', 'N.', 'Riga'],
    sku: ['Codice', 'Cod. articolo', 'Articolo'],
    desc: ['Descrizione', 'Descrizione articolo', 'Prodotto / Servizio'],
    qty: ['Quantità', 'Q.tà', 'Qtà'],
    unit: ['U.M.', 'Unità', 'UM'],
    price: ['Prezzo unitario', 'Prezzo', 'Prezzo unit.', 'Importo unitario'],
    vatRate: ['IVA', 'Aliq. IVA', 'IVA %', 'Aliquota'],
    amount: ['Importo', 'Totale', 'Imponibile'],
    lineTotal: ['Totale righe', 'Subtotale', 'Totale merce'],
    allowance: ['Sconto', 'Abbuono', 'Sconto incondizionato'],
    charge: ['Maggiorazione', 'Spese', 'Addebito'],
    allowanceSum: ['Totale sconti', 'Sconti'],
    chargeSum: ['Totale spese', 'Maggiorazioni'],
    netTotal: ['Totale imponibile', 'Imponibile', 'Totale netto'],
    vat: ['IVA', 'I.V.A.'],
    on: ['su', 'di'],
    vatTotal: ['Totale IVA', 'Totale imposta'],
    grossTotal: ['Totale documento', 'Totale fattura', 'Totale IVA inclusa'],
    paid: ['Acconto', 'Già pagato', 'Acconti versati'],
    rounding: ['Arrotondamento', 'Arrotondamento'],
    due: ['Netto a pagare', 'Totale da pagare', 'Importo dovuto'],
    rate: ['Aliquota', 'Aliq. IVA'],
    base: ['Imponibile', 'Base imponibile'],
    tax: ['Imposta', 'IVA'],
    gross: ['Totale', 'Lordo'],
    category: ['Natura', 'Cod.'],
    vatSummary: ['Riepilogo IVA', 'Castelletto IVA'],
    page: ['Pagina {n} di {m}', 'Pag. {n}/{m}'],
    continued: ['Segue alla pagina successiva', 'Continua a pagina {n}'],
    currencyNote: ['Importi in {cur}', 'Valuta: {cur}'],
    paymentTerms: ['Condizioni di pagamento', 'Termini di pagamento'],
    notes: ['Note', 'Annotazioni'],
    intro: ['Grazie per averci scelto.', 'Vi addebitiamo quanto segue:'],
    pay: [
      'Si prega di effettuare il bonifico di {amount} entro il {date} su IBAN {iban}.',
      'Pagamento di {amount} entro il {date} tramite bonifico, IBAN {iban}.',
    ],
    of: ['di'],
  },
  nl: {
    invoice: ['Factuur', 'FACTUUR'],
    creditNote: ['Creditnota', 'Creditfactuur', 'CREDITNOTA'],
    corrected: ['Gecorrigeerde factuur', 'Correctiefactuur'],
    selfBilled: ['Self-billing factuur', 'Factuur (self-billing)'],
    invoiceNumber: ['Factuurnummer', 'Factuur nr.', 'Factuurnr.', 'Documentnummer'],
    creditNumber: ['Creditnotanummer', 'Creditnota nr.', 'Documentnummer'],
    issueDate: ['Factuurdatum', 'Datum', 'Datum factuur'],
    dueDate: ['Vervaldatum', 'Te betalen voor', 'Uiterste betaaldatum'],
    deliveryDate: ['Leverdatum', 'Leveringsdatum', 'Datum levering'],
    period: ['Periode', 'Factuurperiode'],
    customerNumber: ['Klantnummer', 'Klantnr.', 'Debiteurnummer'],
    buyerReference: ['Uw referentie', 'Referentie koper', 'Referentie'],
    orderReference: ['Ordernummer', 'Inkoopordernummer', 'Uw order', 'Bestelnummer'],
    contractReference: ['Contractnummer', 'Contract', 'Overeenkomst'],
    vatId: ['Btw-nummer', 'BTW nr.', 'Btw-id', 'BTW-nummer'],
    buyerVatId: ['Btw-nummer klant', 'Uw btw-nummer'],
    taxNumber: ['Fiscaal nummer', 'RSIN'],
    registration: ['KvK', 'KvK-nummer', 'Handelsregister'],
    contact: ['Contactpersoon', 'Contact'],
    phone: ['Tel.', 'Telefoon', 'T'],
    email: ['E-mail', 'E'],
    bic: ['BIC', 'SWIFT'],
    bank: ['Bankgegevens', 'Bank', 'Rekening'],
    accountHolder: ['Ten name van', 't.n.v.'],
    payee: ['Begunstigde', 'Betalen aan'],
    billTo: ['Factuuradres', 'Klant', 'Aan'],
    shipTo: ['Afleveradres', 'Leveradres'],
    from: ['Van', 'Leverancier', 'Verkoper'],
    pos: ['Nr.', 'Pos.', 'Regel'],
    sku: ['Artikelnr.', 'Code', 'Art.nr.'],
    desc: ['Omschrijving', 'Beschrijving', 'Product'],
    qty: ['Aantal', 'Hoeveelheid', 'Aant.'],
    unit: ['Eenheid', 'Eenh.'],
    price: ['Prijs', 'Stukprijs', 'Eenheidsprijs', 'Prijs per eenheid'],
    vatRate: ['Btw', 'Btw %', 'BTW-tarief'],
    amount: ['Bedrag', 'Totaal', 'Bedrag excl. btw'],
    lineTotal: ['Subtotaal', 'Totaal regels'],
    allowance: ['Korting', 'Afslag'],
    charge: ['Toeslag', 'Extra kosten'],
    allowanceSum: ['Totaal korting', 'Kortingen'],
    chargeSum: ['Totaal toeslagen', 'Toeslagen'],
    netTotal: ['Totaal excl. btw', 'Netto bedrag', 'Subtotaal excl. btw'],
    vat: ['Btw', 'BTW'],
    on: ['over', 'van'],
    vatTotal: ['Totaal btw', 'Btw totaal'],
    grossTotal: ['Totaal incl. btw', 'Totaal', 'Factuurbedrag'],
    paid: ['Reeds betaald', 'Aanbetaling', 'Voldaan'],
    rounding: ['Afronding', 'Afrondingsverschil'],
    due: ['Te betalen', 'Openstaand bedrag', 'Totaal te betalen'],
    rate: ['Tarief', 'Btw-tarief'],
    base: ['Grondslag', 'Netto', 'Bedrag excl.'],
    tax: ['Btw', 'Btw-bedrag'],
    gross: ['Bruto', 'Totaal incl.'],
    category: ['Cat.', 'Code'],
    vatSummary: ['Btw-specificatie', 'Btw-overzicht'],
    page: ['Pagina {n} van {m}', 'Blad {n}/{m}'],
    continued: ['Vervolg op volgende pagina', 'Zie pagina {n}'],
    currencyNote: ['Alle bedragen in {cur}', 'Valuta: {cur}'],
    paymentTerms: ['Betalingsvoorwaarden', 'Betalingstermijn'],
    notes: ['Opmerkingen', 'Toelichting'],
    intro: ['Hartelijk dank voor uw bestelling.', 'Hierbij brengen wij u het volgende in rekening:'],
    pay: [
      'Gelieve {amount} vóór {date} over te maken op IBAN {iban} o.v.v. het factuurnummer.',
      'Wij verzoeken u {amount} uiterlijk {date} te betalen op IBAN {iban}.',
    ],
    of: ['van'],
  },
};

const MONTHS: Record<Lang, readonly string[]> = {
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  it: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  nl: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
};

/** Country names per language; codes not listed print as the code. */
const COUNTRIES: Record<string, Record<Lang, string>> = {
  DE: { de: 'Deutschland', en: 'Germany', fr: 'Allemagne', it: 'Germania', nl: 'Duitsland' },
  AT: { de: 'Österreich', en: 'Austria', fr: 'Autriche', it: 'Austria', nl: 'Oostenrijk' },
  CH: { de: 'Schweiz', en: 'Switzerland', fr: 'Suisse', it: 'Svizzera', nl: 'Zwitserland' },
  FR: { de: 'Frankreich', en: 'France', fr: 'France', it: 'Francia', nl: 'Frankrijk' },
  BE: { de: 'Belgien', en: 'Belgium', fr: 'Belgique', it: 'Belgio', nl: 'België' },
  NL: { de: 'Niederlande', en: 'Netherlands', fr: 'Pays-Bas', it: 'Paesi Bassi', nl: 'Nederland' },
  LU: { de: 'Luxemburg', en: 'Luxembourg', fr: 'Luxembourg', it: 'Lussemburgo', nl: 'Luxemburg' },
  IT: { de: 'Italien', en: 'Italy', fr: 'Italie', it: 'Italia', nl: 'Italië' },
  ES: { de: 'Spanien', en: 'Spain', fr: 'Espagne', it: 'Spagna', nl: 'Spanje' },
  GB: { de: 'Vereinigtes Königreich', en: 'United Kingdom', fr: 'Royaume-Uni', it: 'Regno Unito', nl: 'Verenigd Koninkrijk' },
  IE: { de: 'Irland', en: 'Ireland', fr: 'Irlande', it: 'Irlanda', nl: 'Ierland' },
  DK: { de: 'Dänemark', en: 'Denmark', fr: 'Danemark', it: 'Danimarca', nl: 'Denemarken' },
  SE: { de: 'Schweden', en: 'Sweden', fr: 'Suède', it: 'Svezia', nl: 'Zweden' },
  PL: { de: 'Polen', en: 'Poland', fr: 'Pologne', it: 'Polonia', nl: 'Polen' },
  US: { de: 'USA', en: 'United States', fr: 'États-Unis', it: 'Stati Uniti', nl: 'Verenigde Staten' },
};

/**
 * Unit words per language. Only a word that names one UN/ECE code unambiguously counts as
 * printing that code; the several codes for "piece" (H87, EA, XPP) print as the code itself
 * or as the piece word, which then does not count as printing the code.
 */
const UNITS: Record<string, Record<Lang, readonly string[]>> = {
  C62: { de: ['Stk', 'Stück'], en: ['pcs', 'pc'], fr: ['pce', 'pièce'], it: ['pz', 'pezzi'], nl: ['st', 'stuks'] },
  HUR: { de: ['Std', 'Std.'], en: ['hrs', 'hours'], fr: ['h', 'heures'], it: ['ore', 'h'], nl: ['uur', 'u'] },
  DAY: { de: ['Tage', 'Tag'], en: ['days', 'day'], fr: ['jours', 'jour'], it: ['giorni', 'gg'], nl: ['dagen', 'dag'] },
  MON: { de: ['Monat', 'Mon.'], en: ['month', 'months'], fr: ['mois'], it: ['mese', 'mesi'], nl: ['maand', 'mnd'] },
  ANN: { de: ['Jahr', 'Jahre'], en: ['year', 'yr'], fr: ['an', 'année'], it: ['anno', 'anni'], nl: ['jaar'] },
  KGM: { de: ['kg'], en: ['kg'], fr: ['kg'], it: ['kg'], nl: ['kg'] },
  TNE: { de: ['t'], en: ['t'], fr: ['t'], it: ['t'], nl: ['t'] },
  MTK: { de: ['m²', 'qm'], en: ['m²', 'sqm'], fr: ['m²'], it: ['m²', 'mq'], nl: ['m²'] },
  MTQ: { de: ['m³', 'cbm'], en: ['m³'], fr: ['m³'], it: ['m³', 'mc'], nl: ['m³'] },
  MTR: { de: ['m'], en: ['m'], fr: ['m'], it: ['m'], nl: ['m'] },
  LTR: { de: ['l', 'Liter'], en: ['l', 'litre'], fr: ['l', 'litre'], it: ['l', 'litri'], nl: ['l', 'liter'] },
  KWH: { de: ['kWh'], en: ['kWh'], fr: ['kWh'], it: ['kWh'], nl: ['kWh'] },
  KWT: { de: ['kW'], en: ['kW'], fr: ['kW'], it: ['kW'], nl: ['kW'] },
};
const PIECE_CODES = new Set(['H87', 'EA', 'XPP']);

/** Why a 0 % rate carries no VAT, in the page's language (UNTDID 5305 categories). */
const EXEMPTION_NOTES: Record<string, Record<Lang, readonly string[]>> = {
  E: {
    de: ['Steuerfreie Leistung.', 'Umsatzsteuerfrei.'],
    en: ['Exempt from VAT.', 'VAT exempt supply.'],
    fr: ['Exonération de TVA.', 'Opération exonérée de TVA.'],
    it: ['Operazione esente IVA.', 'Esente IVA.'],
    nl: ['Vrijgesteld van btw.', 'Btw-vrijgestelde levering.'],
  },
  AE: {
    de: [
      'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge).',
      'Reverse Charge: Die Umsatzsteuer schuldet der Leistungsempfänger.',
    ],
    en: ['Reverse charge: VAT to be accounted for by the recipient.', 'Reverse charge applies.'],
    fr: ['Autoliquidation.', 'Autoliquidation de la TVA par le preneur.'],
    it: ['Inversione contabile.', 'Reverse charge: IVA a carico del committente.'],
    nl: ['Btw verlegd.', 'Verlegd: btw te voldoen door de afnemer.'],
  },
  K: {
    de: ['Steuerfreie innergemeinschaftliche Lieferung.', 'Innergemeinschaftliche Lieferung, steuerfrei.'],
    en: ['Intra-Community supply, exempt from VAT.', 'VAT exempt intra-community supply.'],
    fr: ['Exonération de TVA, livraison intracommunautaire.', 'Livraison intracommunautaire exonérée.'],
    it: ['Cessione intracomunitaria non imponibile.', 'Operazione non imponibile, cessione intracomunitaria.'],
    nl: ['Intracommunautaire levering, 0% btw.', 'Intracommunautaire levering.'],
  },
  G: {
    de: ['Steuerfreie Ausfuhrlieferung.', 'Ausfuhrlieferung, steuerfrei.'],
    en: ['Export outside the EU, zero-rated.', 'Export supply, exempt from VAT.'],
    fr: ['Exonération de TVA, exportation.', 'Exportation hors UE exonérée.'],
    it: ['Non imponibile, esportazione.', 'Esportazione non imponibile.'],
    nl: ['Export buiten de EU, 0% btw.', 'Uitvoer, vrijgesteld van btw.'],
  },
  Z: {
    de: ['Steuersatz 0 % (Nullsatz).', 'Nullsatz.'],
    en: ['Zero-rated supply.', 'Zero rated.'],
    fr: ['Taux zéro.', 'Opération au taux zéro.'],
    it: ['Aliquota zero.', 'Operazione ad aliquota zero.'],
    nl: ['Nultarief.', 'Btw-nultarief.'],
  },
  O: {
    de: ['Nicht steuerbarer Umsatz.', 'Nicht im Inland steuerbare Leistung.'],
    en: ['Not subject to VAT.', 'Outside the scope of VAT.'],
    fr: ["Hors champ d'application de la TVA.", 'Non soumis à la TVA.'],
    it: ['Fuori campo IVA.', 'Operazione fuori campo IVA.'],
    nl: ['Niet onderworpen aan btw.', 'Buiten de reikwijdte van de btw.'],
  },
};

// ---------------------------------------------------------------- seeded randomness

export interface Rng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32 */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)]!,
    chance: (p) => next() < p,
  };
}

/** FNV-1a, to derive independent streams from one seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

// ---------------------------------------------------------------- layout spec

export type FontName = 'Helvetica' | 'Times' | 'Courier' | 'DejaVuSans' | 'DejaVuSerif';
type DateStyle = 'dmy.' | 'dmy/' | 'dmy-' | 'iso' | 'long' | 'long-us' | 'dd-mon-yyyy';
type Column = 'pos' | 'sku' | 'desc' | 'qty' | 'unit' | 'qtyUnit' | 'price' | 'vat' | 'amount';
type CurrencyStyle = 'symbol-after' | 'symbol-before' | 'code-after' | 'code-before' | 'note';

/** Everything a seed decides about a document's look, independent of the invoice it lays out. */
export interface LayoutSpec {
  family: Family;
  seed: number;
  lang: Lang;
  font: FontName;
  /** Body text size, 7–11 pt. */
  size: number;
  page: 'A4' | 'Letter';
  labels: Record<LabelKey, string>;
  dates: DateStyle;
  decimal: ',' | '.';
  group: '' | '.' | ',' | ' ' | "'";
  currency: CurrencyStyle;
  /** Amount cells of the item table carry the currency too. */
  currencyInTable: boolean;
  percent: 'space' | 'tight' | 'decimals';
  quantityDecimals: 'trim' | 'fixed';
  columns: Column[];
  vatStyle: 'rows' | 'table';
  /** "VAT 19 % on 100.00" rows instead of "VAT 19 %". */
  vatRowBase: boolean;
  vatCategoryLetters: boolean;
  /** Break the item table after this many rows (as a letterhead or tall rows would). */
  rowsPerPage?: number;
  descriptions: boolean;
  lineAdjustments: boolean;
  countries: 'always' | 'foreign' | 'never';
  ibanGroups: boolean;
  /** The letterhead shows the trading name (BT-28); the legal name appears elsewhere or not at all. */
  tradingNameHead: boolean;
  /** Probability that an optional header value (due date, references, ...) is printed. */
  optional: number;
  numberInTitle: boolean;
  paySentence: boolean;
}

const LANG_OF: Partial<Record<Family, Lang>> = {
  din5008: 'de',
  'en-billto': 'en',
  'fr-facture': 'fr',
  'it-fattura': 'it',
  'nl-factuur': 'nl',
};

const COLUMN_ORDERS: readonly Column[][] = [
  ['pos', 'sku', 'desc', 'qty', 'unit', 'price', 'vat', 'amount'],
  ['pos', 'desc', 'qtyUnit', 'price', 'amount'],
  ['desc', 'qty', 'price', 'vat', 'amount'],
  ['pos', 'qty', 'unit', 'desc', 'price', 'amount'],
  ['sku', 'desc', 'qty', 'unit', 'price', 'amount', 'vat'],
  ['desc', 'qtyUnit', 'price', 'amount'],
  ['pos', 'desc', 'vat', 'qty', 'price', 'amount'],
  ['qty', 'desc', 'price', 'amount'],
  ['pos', 'sku', 'desc', 'qtyUnit', 'price', 'vat', 'amount'],
];

export function layoutSpec(family: Family, seed: number): LayoutSpec {
  const r = rng(hash(`${family}:${seed}`));
  const lang = LANG_OF[family] ?? r.pick(LANGS);
  const font = r.pick<FontName>(['Helvetica', 'Helvetica', 'Times', 'Courier', 'DejaVuSans', 'DejaVuSerif']);
  const size = font === 'Courier' ? r.int(7, 9) : r.int(7, 11);
  const labels = Object.fromEntries(Object.entries(VOCAB[lang]).map(([k, list]) => [k, r.pick(list)])) as Record<LabelKey, string>;
  const dates: DateStyle = r.pick(
    (
      {
        de: ['dmy.', 'dmy.', 'dmy.', 'long', 'iso'],
        en: ['dmy/', 'long', 'long-us', 'dd-mon-yyyy', 'iso'],
        fr: ['dmy/', 'dmy/', 'long'],
        it: ['dmy/', 'dmy/', 'dmy-', 'long', 'dmy.'],
        nl: ['dmy-', 'dmy-', 'long', 'dmy/'],
      } as Record<Lang, DateStyle[]>
    )[lang],
  );
  const decimal = lang === 'en' ? '.' : ',';
  const group = r.pick<LayoutSpec['group']>(
    (
      { de: ['.', '.', ''], en: [',', ',', ''], fr: [' ', ' ', '', '.'], it: ['.', '.', ''], nl: ['.', '.', ''] } as Record<
        Lang,
        Array<LayoutSpec['group']>
      >
    )[lang],
  );
  const currency = r.pick<CurrencyStyle>(
    (
      {
        de: ['symbol-after', 'symbol-after', 'code-after', 'note'],
        en: ['symbol-before', 'symbol-before', 'code-before', 'note'],
        fr: ['symbol-after', 'symbol-after', 'code-after', 'note'],
        it: ['symbol-before', 'symbol-after', 'code-before', 'note'],
        nl: ['symbol-before', 'symbol-before', 'code-before', 'note'],
      } as Record<Lang, CurrencyStyle[]>
    )[lang],
  );
  const columns = [...r.pick(COLUMN_ORDERS)];
  // Optional columns come and go: no position, no article number, no VAT column.
  for (const optional of ['pos', 'sku', 'vat'] as const)
    if (columns.includes(optional) && r.chance(0.25)) columns.splice(columns.indexOf(optional), 1);
  return {
    family,
    seed,
    lang,
    font,
    size,
    page: lang === 'en' && r.chance(0.4) ? 'Letter' : 'A4',
    labels,
    dates,
    decimal,
    group,
    currency,
    currencyInTable: r.chance(0.25),
    percent: r.pick(['space', 'tight', 'decimals'] as const),
    quantityDecimals: r.chance(0.3) ? 'fixed' : 'trim',
    columns,
    vatStyle: family === 'modern-summary' ? 'table' : r.chance(0.35) ? 'table' : 'rows',
    vatRowBase: r.chance(0.4),
    vatCategoryLetters: r.chance(0.3),
    ...(r.chance(0.45) ? { rowsPerPage: r.int(4, 9) } : {}),
    descriptions: r.chance(0.5),
    lineAdjustments: r.chance(0.4),
    countries: r.pick(['always', 'foreign', 'foreign', 'never'] as const),
    ibanGroups: r.chance(0.7),
    tradingNameHead: r.chance(0.4),
    optional: 0.6 + r.next() * 0.35,
    numberInTitle: r.chance(0.3),
    paySentence: family === 'nl-factuur' || r.chance(0.25),
  };
}

// ---------------------------------------------------------------- formatting

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

class Formats {
  constructor(
    private readonly spec: LayoutSpec,
    private readonly currencyCode: string,
  ) {}

  number(value: string, minFrac: number, maxFrac: number): string {
    const d = new Decimal(value);
    const places = Math.min(maxFrac, Math.max(minFrac, d.decimalPlaces()));
    const [int, frac] = d.abs().toFixed(places).split('.');
    const grouped = this.spec.group ? int!.replace(/\B(?=(\d{3})+(?!\d))/g, this.spec.group) : int!;
    return `${d.isNegative() && !d.isZero() ? '-' : ''}${grouped}${frac ? this.spec.decimal + frac : ''}`;
  }

  amount(value: string): string {
    return this.number(value, 2, 2);
  }

  get symbol(): string {
    return ({ EUR: '€', GBP: '£', USD: '$' } as Record<string, string>)[this.currencyCode] ?? this.currencyCode;
  }

  /** An amount with the currency as the spec writes it (a 'note' spec states the currency once elsewhere). */
  money(value: string): string {
    const a = this.amount(value);
    switch (this.spec.currency) {
      case 'symbol-after':
        return `${a} ${this.symbol}`;
      case 'symbol-before':
        return this.spec.lang === 'en' ? `${a.startsWith('-') ? '-' : ''}${this.symbol}${a.replace(/^-/, '')}` : `${this.symbol} ${a}`;
      case 'code-after':
        return `${a} ${this.currencyCode}`;
      case 'code-before':
        return `${this.currencyCode} ${a}`;
      case 'note':
        return a;
    }
  }

  price(value: string): string {
    return this.number(value, 2, 4);
  }

  quantity(value: string): string {
    return this.spec.quantityDecimals === 'fixed' ? this.number(value, 2, 4) : this.number(value, 0, 4);
  }

  percent(rate: string): string {
    const n = this.spec.percent === 'decimals' ? this.number(rate, 2, 2) : this.number(rate, 0, 2);
    return this.spec.percent === 'tight' ? `${n}%` : `${n} %`;
  }

  date(iso: string): string {
    const [y, m, d] = iso.split('-') as [string, string, string];
    const months = MONTHS[this.spec.lang];
    const day = String(Number(d));
    switch (this.spec.dates) {
      case 'dmy.':
        return `${d}.${m}.${y}`;
      case 'dmy/':
        return `${d}/${m}/${y}`;
      case 'dmy-':
        return `${d}-${m}-${y}`;
      case 'iso':
        return iso;
      case 'long':
        return this.spec.lang === 'de' ? `${day}. ${months[Number(m) - 1]} ${y}` : `${day} ${months[Number(m) - 1]} ${y}`;
      case 'long-us':
        return `${months[Number(m) - 1]} ${day}, ${y}`;
      case 'dd-mon-yyyy':
        return `${d}-${months[Number(m) - 1]!.slice(0, 3)}-${y}`;
    }
  }

  iban(iban: string): string {
    const compact = iban.replace(/\s+/g, '');
    return this.spec.ibanGroups && /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact) ? compact.replace(/(.{4})(?=.)/g, '$1 ') : compact;
  }
}

const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------- drawing

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  printable(text: string): string;
}

async function loadFonts(doc: PDFDocument, font: FontName): Promise<Fonts> {
  if (font === 'DejaVuSans' || font === 'DejaVuSerif') return embedFonts(doc, font);
  const names = {
    Helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
    Times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
    Courier: [StandardFonts.Courier, StandardFonts.CourierBold],
  }[font];
  const [regular, bold] = await Promise.all(names.map((n) => doc.embedFont(n)));
  const covered = new Set(regular!.getCharacterSet());
  return {
    regular: regular!,
    bold: bold!,
    printable: (text) => Array.from(text, (ch) => (covered.has(ch.codePointAt(0)!) ? ch : '?')).join(''),
  };
}

interface TextOptions {
  bold?: boolean;
  align?: 'left' | 'right' | 'center';
  grey?: boolean;
  white?: boolean;
  page?: PDFPage;
}

/** Pages in top-down coordinates: `y` is the top of a line of text. */
class Canvas {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Fonts,
    readonly W: number,
    readonly H: number,
  ) {}

  addPage(): void {
    this.page = this.doc.addPage([this.W, this.H]);
    this.pages.push(this.page);
  }

  width(text: string, size: number, bold = false): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(this.fonts.printable(text), size);
  }

  text(x: number, y: number, text: string, size: number, o: TextOptions = {}): void {
    const s = this.fonts.printable(text);
    if (!s.trim()) return;
    const w = this.width(s, size, o.bold);
    const left = o.align === 'right' ? x - w : o.align === 'center' ? x - w / 2 : x;
    (o.page ?? this.page).drawText(s, {
      x: left,
      y: this.H - y - size * 0.8,
      size,
      font: o.bold ? this.fonts.bold : this.fonts.regular,
      color: o.white ? rgb(1, 1, 1) : o.grey ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0),
    });
  }

  /** Words into lines no wider than `width`; a word wider than that is cut. */
  wrap(text: string, width: number, size: number, bold = false): string[] {
    const lines: string[] = [];
    let line = '';
    for (let word of clean(text).split(' ')) {
      while (this.width(word, size, bold) > width && word.length > 1) {
        let n = word.length - 1;
        while (n > 1 && this.width(word.slice(0, n), size, bold) > width) n--;
        if (line) lines.push(line);
        lines.push(word.slice(0, n));
        line = '';
        word = word.slice(n);
      }
      const next = line ? `${line} ${word}` : word;
      if (line && this.width(next, size, bold) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  }

  rule(x1: number, y: number, x2: number, thickness = 0.5, page?: PDFPage): void {
    (page ?? this.page).drawLine({ start: { x: x1, y: this.H - y }, end: { x: x2, y: this.H - y }, thickness, color: rgb(0.3, 0.3, 0.3) });
  }

  vrule(x: number, y1: number, y2: number, thickness = 0.5): void {
    this.page.drawLine({ start: { x, y: this.H - y1 }, end: { x, y: this.H - y2 }, thickness, color: rgb(0.3, 0.3, 0.3) });
  }

  box(x: number, y: number, w: number, h: number, o: { fill?: number; stroke?: boolean } = {}): void {
    this.page.drawRectangle({
      x,
      y: this.H - y - h,
      width: w,
      height: h,
      ...(o.fill !== undefined ? { color: rgb(o.fill, o.fill, o.fill) } : {}),
      ...(o.stroke ? { borderColor: rgb(0.3, 0.3, 0.3), borderWidth: 0.6 } : {}),
    });
  }
}

// ---------------------------------------------------------------- what was printed

type Marks = Array<[string, string]>;

function setPath(target: Record<string, unknown>, path: string, value: string): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = target;
  parts.forEach((part, i) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    const last = i === parts.length - 1;
    if (m) {
      const list = (node[m[1]!] ??= []) as Array<Record<string, unknown>>;
      node = list[Number(m[2])] ??= {};
    } else if (last) node[part] = value;
    else node = (node[part] ??= {}) as Record<string, unknown>;
  });
}

function getValue(target: unknown, path: string): unknown {
  let node = target as Record<string, unknown> | undefined;
  for (const part of path.split('.')) {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    node = (m ? (node?.[m[1]!] as unknown[] | undefined)?.[Number(m[2])] : node?.[part]) as Record<string, unknown> | undefined;
  }
  return node;
}

const str = (target: unknown, path: string): string | undefined => {
  const v = getValue(target, path);
  return typeof v === 'string' && v.trim() ? v : undefined;
};

// ---------------------------------------------------------------- document context

type Role = 'seller' | 'buyer' | 'deliverTo';

interface Ctx {
  inv: Invoice;
  spec: LayoutSpec;
  c: Canvas;
  r: Rng;
  f: Formats;
  L: Record<LabelKey, string>;
  printed: Record<string, unknown>;
  /** Where flowing content ends on every page (the footer is below). */
  bottom: number;
  ml: number;
  mr: number;
  /** Drawn at the top of every page the content flows onto. */
  continuation: (page: number) => number;
}

function mark(ctx: Ctx, marks: Marks): void {
  for (const [p, v] of marks) setPath(ctx.printed, p, v);
}

const lh = (size: number) => size * 1.3;

function label(ctx: Ctx, key: LabelKey, values: Record<string, string> = {}): string {
  return fill(ctx.L[key], values);
}

/** The document's title; its type code counts as printed only where the title says it. */
function title(ctx: Ctx): { text: string; marks: Marks } {
  const code = ctx.inv.invoiceTypeCode ?? '380';
  const key = ({ '380': 'invoice', '381': 'creditNote', '384': 'corrected', '389': 'selfBilled' } as Record<string, LabelKey>)[code];
  return { text: label(ctx, key ?? 'invoice'), marks: key ? [['invoiceTypeCode', code]] : [] };
}

function numberLabel(ctx: Ctx): string {
  return ctx.inv.invoiceTypeCode === '381' ? ctx.L.creditNumber : ctx.L.invoiceNumber;
}

interface Pair {
  key: LabelKey;
  label: string;
  value: string;
  marks: Marks;
}

/** Header values as label/value pairs, each optional one printed with the spec's probability. */
function headerPairs(ctx: Ctx, skip: ReadonlySet<LabelKey> = new Set()): Pair[] {
  const { inv, f, r } = ctx;
  const out: Pair[] = [];
  const add = (key: LabelKey, value: string | undefined, marks: Marks, optional = true, lbl = label(ctx, key)) => {
    if (value === undefined || skip.has(key) || (optional && !r.chance(ctx.spec.optional))) return;
    out.push({ key, label: lbl, value, marks });
  };
  if (inv.invoiceNumber) add('invoiceNumber', inv.invoiceNumber, [['invoiceNumber', inv.invoiceNumber]], false, numberLabel(ctx));
  if (inv.invoiceIssueDate) add('issueDate', f.date(inv.invoiceIssueDate), [['invoiceIssueDate', inv.invoiceIssueDate]], false);
  const delivery = inv.deliveryInformation?.actualDeliveryDate;
  if (delivery) add('deliveryDate', f.date(delivery), [['deliveryInformation.actualDeliveryDate', delivery]]);
  const period = inv.invoicingPeriod;
  if (period?.invoicingPeriodStartDate && period.invoicingPeriodEndDate)
    add('period', `${f.date(period.invoicingPeriodStartDate)} – ${f.date(period.invoicingPeriodEndDate)}`, []);
  if (inv.paymentDueDate) add('dueDate', f.date(inv.paymentDueDate), [['paymentDueDate', inv.paymentDueDate]]);
  const customer = inv.buyer?.buyerIdentifier;
  if (customer) add('customerNumber', customer, [['buyer.buyerIdentifier', customer]]);
  if (inv.purchaseOrderReference)
    add('orderReference', inv.purchaseOrderReference, [['purchaseOrderReference', inv.purchaseOrderReference]]);
  if (inv.contractReference) add('contractReference', inv.contractReference, [['contractReference', inv.contractReference]]);
  if (inv.buyerReference) add('buyerReference', inv.buyerReference, [['buyerReference', inv.buyerReference]]);
  const contact = inv.seller?.sellerContact;
  if (contact?.sellerContactPoint) add('contact', clean(contact.sellerContactPoint), []);
  if (ctx.spec.currency === 'note' && r.chance(0.5))
    add(
      'currencyNote',
      inv.invoiceCurrencyCode,
      inv.invoiceCurrencyCode ? [['invoiceCurrencyCode', inv.invoiceCurrencyCode]] : [],
      false,
      label(ctx, 'currencyNote', { cur: '' }).replace(/[: ]+$/, ''),
    );
  return out;
}

/** The address lines of a party, each with what it prints. */
function partyLines(
  ctx: Ctx,
  role: Role,
  o: { name?: boolean; vat?: boolean; contact?: boolean } = {},
): Array<{ text: string; marks: Marks; bold?: boolean }> {
  const { inv, spec } = ctx;
  const P = {
    seller: { name: 'seller.sellerName', base: 'seller.sellerPostalAddress', pre: 'seller', vat: 'seller.sellerVatIdentifier' },
    buyer: { name: 'buyer.buyerName', base: 'buyer.buyerPostalAddress', pre: 'buyer', vat: 'buyer.buyerVatIdentifier' },
    deliverTo: { name: 'deliveryInformation.deliverToPartyName', base: 'deliveryInformation.deliverToAddress', pre: 'deliverTo', vat: '' },
  }[role];
  const lines: Array<{ text: string; marks: Marks; bold?: boolean }> = [];
  const name = str(inv, P.name);
  if (o.name !== false && name) lines.push({ text: clean(name), marks: role === 'deliverTo' ? [] : [[P.name, name]], bold: true });
  if (o.contact && role === 'buyer' && inv.buyer?.buyerContact?.buyerContactPoint)
    lines.push({ text: clean(inv.buyer.buyerContact.buyerContactPoint), marks: [] });
  for (const n of [1, 2, 3]) {
    const key = `${P.pre}AddressLine${n}`;
    const v = str(inv, `${P.base}.${key}`);
    if (v) lines.push({ text: clean(v), marks: n === 1 && role !== 'deliverTo' ? [[`${P.base}.${key}`, v]] : [] });
  }
  const city = str(inv, `${P.base}.${P.pre}City`);
  const pc = str(inv, `${P.base}.${P.pre}PostCode`);
  const cc = str(inv, `${P.base}.${P.pre}CountryCode`);
  const cityMarks: Marks =
    role === 'deliverTo'
      ? []
      : [...(city ? ([[`${P.base}.${P.pre}City`, city]] as Marks) : []), ...(pc ? ([[`${P.base}.${P.pre}PostCode`, pc]] as Marks) : [])];
  if (cc === 'GB' || cc === 'IE') {
    if (city) lines.push({ text: clean(city), marks: cityMarks.filter(([p]) => p.endsWith('City')) });
    if (pc) lines.push({ text: clean(pc), marks: cityMarks.filter(([p]) => p.endsWith('PostCode')) });
  } else if (city || pc) lines.push({ text: clean(`${pc ?? ''} ${city ?? ''}`), marks: cityMarks });
  const other = role === 'seller' ? inv.buyer?.buyerPostalAddress?.buyerCountryCode : inv.seller?.sellerPostalAddress?.sellerCountryCode;
  const showCountry =
    spec.countries === 'always' || (spec.countries === 'foreign' && cc !== undefined && other !== undefined && cc !== other);
  if (cc && showCountry)
    lines.push({ text: COUNTRIES[cc]?.[spec.lang] ?? cc, marks: role === 'deliverTo' ? [] : [[`${P.base}.${P.pre}CountryCode`, cc]] });
  const vat = P.vat ? str(inv, P.vat) : undefined;
  if (o.vat && vat) lines.push({ text: `${ctx.L.vatId}: ${vat}`, marks: [[P.vat, vat]] });
  return lines;
}

/** Draws lines of text top-down; returns the y below them. */
function drawLines(
  ctx: Ctx,
  x: number,
  y: number,
  lines: Array<{ text: string; marks: Marks; bold?: boolean }>,
  size: number,
  o: { align?: 'left' | 'right'; boldFirst?: boolean; width?: number } = {},
): number {
  for (const l of lines) {
    const bold = l.bold && o.boldFirst !== false;
    const parts = o.width ? ctx.c.wrap(l.text, o.width, size, bold) : [l.text];
    for (const part of parts) {
      ctx.c.text(x, y, part, size, { bold, align: o.align ?? 'left' });
      y += lh(size);
    }
    mark(ctx, l.marks);
  }
  return y;
}

/** Label/value pairs in two columns (labels at x, values at x + labelWidth or right-aligned at xRight). */
function drawPairs(
  ctx: Ctx,
  pairs: Pair[],
  x: number,
  y: number,
  size: number,
  o: { valueX?: number; xRight?: number; colon?: boolean; boldLabels?: boolean } = {},
): number {
  const labelWidth = Math.max(0, ...pairs.map((p) => ctx.c.width(`${p.label}:`, size, o.boldLabels))) + 8;
  for (const p of pairs) {
    ctx.c.text(x, y, o.colon === false ? p.label : `${p.label}:`, size, { bold: o.boldLabels });
    if (o.xRight !== undefined) ctx.c.text(o.xRight, y, p.value, size, { align: 'right' });
    else ctx.c.text(o.valueX ?? x + labelWidth, y, p.value, size);
    mark(ctx, p.marks);
    y += lh(size);
  }
  return y;
}

/** Label above value, in `columns` columns across `width`. */
function drawStacked(
  ctx: Ctx,
  pairs: Pair[],
  x: number,
  y: number,
  width: number,
  columns: number,
  size: number,
  o: { cells?: boolean } = {},
): number {
  const colW = width / columns;
  // A value too wide for its cell wraps onto a second line; every row of cells is as tall as its tallest value.
  const values = pairs.map((p) => ctx.c.wrap(p.value, colW - 6, size, true).slice(0, 2));
  let cy = y;
  for (let row = 0; row * columns < pairs.length; row++) {
    const lines = Math.max(...values.slice(row * columns, (row + 1) * columns).map((v) => v.length));
    const rowH = lh(size - 1.5) + lines * lh(size) + 6;
    for (let k = row * columns; k < Math.min(pairs.length, (row + 1) * columns); k++) {
      const p = pairs[k]!;
      const cx = x + (k % columns) * colW;
      if (o.cells) ctx.c.box(cx, cy, colW, rowH, { stroke: true });
      ctx.c.text(cx + 3, cy + 2, p.label, size - 1.5, { grey: true });
      values[k]!.forEach((v, n) => ctx.c.text(cx + 3, cy + 2 + lh(size - 1.5) + n * lh(size), v, size, { bold: true }));
      if (values[k]!.join(' ') === clean(p.value)) mark(ctx, p.marks);
    }
    cy += rowH;
  }
  return cy;
}

// ---------------------------------------------------------------- item table

interface TableStyle {
  size: number;
  fillHeader?: number;
  grid?: boolean;
  zebra?: boolean;
  /** Bold item names. */
  boldNames?: boolean;
}

const NUMERIC: ReadonlySet<Column> = new Set(['qty', 'qtyUnit', 'price', 'vat', 'amount']);

function unitWord(ctx: Ctx, code: string | undefined): { text: string; counts: boolean } | undefined {
  if (!code) return undefined;
  const words = UNITS[code]?.[ctx.spec.lang];
  if (words) return { text: words[hash(`${ctx.spec.seed}:${code}`) % words.length]!, counts: true };
  if (PIECE_CODES.has(code) && ctx.spec.seed % 2 === 0) return { text: UNITS.C62![ctx.spec.lang][0]!, counts: false };
  return { text: code, counts: true };
}

function columnHeader(ctx: Ctx, col: Column): string {
  switch (col) {
    case 'qtyUnit':
      return ctx.L.qty;
    case 'vat':
      return ctx.L.vatRate;
    case 'amount':
      return ctx.spec.currency === 'note' && !ctx.spec.currencyInTable
        ? `${ctx.L.amount} (${ctx.inv.invoiceCurrencyCode ?? 'EUR'})`
        : ctx.L.amount;
    default:
      return ctx.L[col];
  }
}

interface Cell {
  text: string;
  marks: Marks;
}

function lineCells(ctx: Ctx, line: InvoiceLine, i: number): Partial<Record<Column, Cell>> {
  const { f, spec } = ctx;
  const at = `invoiceLine[${i}]`;
  const q = line.invoicedQuantity;
  const unit = unitWord(ctx, line.invoicedQuantityUnitOfMeasureCode);
  const unitMarks: Marks = unit?.counts ? [[`${at}.invoicedQuantityUnitOfMeasureCode`, line.invoicedQuantityUnitOfMeasureCode!]] : [];
  const price = line.priceDetails?.itemNetPrice;
  const rate = line.lineVatInformation?.[0]?.invoicedItemVatRate;
  const category = line.lineVatInformation?.[0]?.invoicedItemVatCategoryCode;
  const net = line.invoiceLineNetAmount;
  const cells: Partial<Record<Column, Cell>> = {
    pos: { text: line.invoiceLineIdentifier ?? String(i + 1), marks: [] },
    sku: { text: line.itemInformation?.itemSellersIdentifier ?? '', marks: [] },
    ...(q !== undefined ? { qty: { text: f.quantity(q), marks: [[`${at}.invoicedQuantity`, q]] } } : {}),
    ...(unit ? { unit: { text: unit.text, marks: unitMarks } } : {}),
    ...(q !== undefined
      ? { qtyUnit: { text: `${f.quantity(q)}${unit ? ` ${unit.text}` : ''}`, marks: [[`${at}.invoicedQuantity`, q], ...unitMarks] } }
      : {}),
    ...(price !== undefined
      ? {
          price: {
            text: spec.currencyInTable ? f.money(price).replace(f.amount(price), f.price(price)) : f.price(price),
            marks: [[`${at}.priceDetails.itemNetPrice`, price]],
          },
        }
      : {}),
    ...(rate !== undefined
      ? {
          vat: {
            text: `${f.percent(rate)}${spec.vatCategoryLetters && category && category !== 'S' ? ` (${category})` : ''}`,
            marks: [[`${at}.lineVatInformation[0].invoicedItemVatRate`, rate]],
          },
        }
      : {}),
    ...(net !== undefined
      ? { amount: { text: spec.currencyInTable ? f.money(net) : f.amount(net), marks: [[`${at}.invoiceLineNetAmount`, net]] } }
      : {}),
  };
  return cells;
}

/** Extra text under an item's name: description, period, note (each optional, shortened). */
function detailLines(ctx: Ctx, line: InvoiceLine): string[] {
  const out: string[] = [];
  const { r, f, spec } = ctx;
  const desc = clean(line.itemInformation?.itemDescription);
  if (spec.descriptions && desc && desc !== clean(line.itemInformation?.itemName))
    out.push(desc.length > 160 ? `${desc.slice(0, 157)}…` : desc);
  const period = line.invoiceLinePeriod;
  if (period?.invoiceLinePeriodStartDate && period.invoiceLinePeriodEndDate && r.chance(0.4))
    out.push(`${ctx.L.period}: ${f.date(period.invoiceLinePeriodStartDate)} – ${f.date(period.invoiceLinePeriodEndDate)}`);
  const note = clean(line.invoiceLineNote);
  if (note && r.chance(0.3)) out.push(note.length > 120 ? `${note.slice(0, 117)}…` : note);
  return out;
}

/** The item table from y; runs over pages with the header repeated. Returns the y below it. */
function itemTable(ctx: Ctx, x: number, width: number, y: number, style: TableStyle): number {
  const { c, inv, spec } = ctx;
  const lines = inv.invoiceLine ?? [];
  let size = style.size;
  let columns = spec.columns.filter((col) => col !== 'sku' || lines.some((l) => l.itemInformation?.itemSellersIdentifier));
  const cells = lines.map((l, i) => lineCells(ctx, l, i));
  const pad = 4;
  let widths: number[] = [];
  for (;;) {
    widths = columns.map((col) =>
      col === 'desc'
        ? 0
        : Math.max(c.width(columnHeader(ctx, col), size, true), ...cells.map((cl) => c.width(cl[col]?.text ?? '', size))) + 2 * pad,
    );
    const rest = width - widths.reduce((s, w) => s + w, 0);
    if (rest >= 110 || size <= 6) {
      widths[columns.indexOf('desc')] = Math.max(rest, 60);
      break;
    }
    if (columns.includes('sku')) columns = columns.filter((col) => col !== 'sku');
    else size -= 0.5;
  }
  const xs: number[] = [];
  widths.reduce((acc, w) => (xs.push(acc), acc + w), x);
  const line = lh(size);
  const small = size - 1;

  const header = (yy: number): number => {
    const h = line + 4;
    if (style.fillHeader !== undefined) c.box(x, yy, width, h, { fill: style.fillHeader });
    columns.forEach((col, k) => {
      const right = NUMERIC.has(col);
      c.text(right ? xs[k]! + widths[k]! - pad : xs[k]! + pad, yy + 2, columnHeader(ctx, col), size, {
        bold: true,
        align: right ? 'right' : 'left',
      });
    });
    if (style.grid) c.box(x, yy, width, h, { stroke: true });
    else c.rule(x, yy + h, x + width, 0.7);
    // "Betrag (EUR)": the header states the currency.
    if (columns.includes('amount') && columnHeader(ctx, 'amount') !== ctx.L.amount && inv.invoiceCurrencyCode)
      mark(ctx, [['invoiceCurrencyCode', inv.invoiceCurrencyCode]]);
    return yy + h + 2;
  };

  y = header(y);
  let onPage = 0;
  let pageNo = 1;
  lines.forEach((l, i) => {
    const cl = cells[i]!;
    const descW = widths[columns.indexOf('desc')]! - 2 * pad;
    const name = clean(l.itemInformation?.itemName);
    const nameLines = c.wrap(name || '—', descW, size, style.boldNames);
    const details = detailLines(ctx, l)
      .flatMap((d) => c.wrap(d, descW, small))
      .slice(0, 4);
    const adjustments = spec.lineAdjustments
      ? [
          ...(l.invoiceLineAllowances ?? []).map((a) => ({
            text: `${ctx.L.allowance}${a.invoiceLineAllowanceReason ? ` ${clean(a.invoiceLineAllowanceReason)}` : ''}`,
            amount: a.invoiceLineAllowanceAmount ? ctx.f.amount(new Decimal(a.invoiceLineAllowanceAmount).neg().toString()) : '',
          })),
          ...(l.invoiceLineCharges ?? []).map((a) => ({
            text: `${ctx.L.charge}${a.invoiceLineChargeReason ? ` ${clean(a.invoiceLineChargeReason)}` : ''}`,
            amount: a.invoiceLineChargeAmount ? ctx.f.amount(a.invoiceLineChargeAmount) : '',
          })),
        ]
      : [];
    const h = nameLines.length * line + details.length * lh(small) + adjustments.length * lh(small) + 4;
    // A rows-per-page limit stands for a tall letterhead: later pages take three times as many rows.
    const limit = spec.rowsPerPage === undefined ? Infinity : spec.rowsPerPage * (pageNo === 1 ? 1 : 3);
    if ((y + h > ctx.bottom || onPage >= limit) && onPage > 0) {
      c.text(x + width, y + 4, label(ctx, 'continued', { n: String(pageNo + 1) }), small, { align: 'right', grey: true });
      c.addPage();
      pageNo++;
      y = header(ctx.continuation(c.pages.length));
      onPage = 0;
    }
    if (style.zebra && i % 2 === 1) c.box(x, y - 1, width, h, { fill: 0.94 });
    columns.forEach((col, k) => {
      if (col === 'desc') {
        let yy = y;
        for (const t of nameLines) {
          c.text(xs[k]! + pad, yy, t, size, { bold: style.boldNames });
          yy += line;
        }
        if (name) mark(ctx, [[`invoiceLine[${i}].itemInformation.itemName`, name]]);
        for (const t of details) {
          c.text(xs[k]! + pad, yy, t, small, { grey: true });
          yy += lh(small);
        }
        for (const a of adjustments) {
          c.text(xs[k]! + pad + 8, yy, a.text, small);
          const amountCol = columns.indexOf('amount');
          if (amountCol >= 0 && a.amount) c.text(xs[amountCol]! + widths[amountCol]! - pad, yy, a.amount, small, { align: 'right' });
          yy += lh(small);
        }
        return;
      }
      const cell = cl[col];
      if (!cell?.text) return;
      c.text(NUMERIC.has(col) ? xs[k]! + widths[k]! - pad : xs[k]! + pad, y, cell.text, size, {
        align: NUMERIC.has(col) ? 'right' : 'left',
      });
      mark(ctx, cell.marks);
    });
    if (style.grid) {
      c.box(x, y - 2, width, h, { stroke: true });
      for (const xx of xs.slice(1)) c.vrule(xx, y - 2, y - 2 + h);
    }
    y += h;
    onPage++;
  });
  if (!style.grid) c.rule(x, y, x + width, 0.7);
  return y + 6;
}

// ---------------------------------------------------------------- totals and VAT

interface Row {
  label: string;
  value: string;
  marks: Marks;
  bold?: boolean;
  ruleAbove?: boolean;
}

const nonZero = (v: string | undefined): v is string => v !== undefined && !new Decimal(v).isZero();

/** The VAT category counts as printed where the page says it: a positive standard rate, a printed letter, or an exemption note. */
function categoryMarks(ctx: Ctx, i: number, viaNote: boolean): Marks {
  const row = ctx.inv.vatBreakdown?.[i];
  const code = row?.vatCategoryCode;
  if (!code) return [];
  const positiveStandard = code === 'S' && nonZero(row.vatCategoryRate);
  return positiveStandard || viaNote || ctx.spec.vatCategoryLetters ? [[`vatBreakdown[${i}].vatCategoryCode`, code]] : [];
}

function vatRateLabel(ctx: Ctx, i: number): string {
  const row = ctx.inv.vatBreakdown![i]!;
  const letter = ctx.spec.vatCategoryLetters && row.vatCategoryCode ? ` (${row.vatCategoryCode})` : '';
  return `${ctx.f.percent(row.vatCategoryRate ?? '0')}${letter}`;
}

function totalRows(ctx: Ctx, withVatRows: boolean): Row[] {
  const { inv, f, r, L } = ctx;
  const t = inv.documentTotals ?? {};
  const rows: Row[] = [];
  const allowances = inv.documentLevelAllowances ?? [];
  const charges = inv.documentLevelCharges ?? [];
  const adjusted = allowances.length > 0 || charges.length > 0;
  if (t.sumOfInvoiceLineNetAmount && (adjusted || r.chance(0.4))) {
    rows.push({
      label: L.lineTotal,
      value: f.money(t.sumOfInvoiceLineNetAmount),
      marks: [['documentTotals.sumOfInvoiceLineNetAmount', t.sumOfInvoiceLineNetAmount]],
    });
  }
  const withReason = (base: string, reason: string | undefined) => (reason && r.chance(0.7) ? `${base} (${clean(reason)})` : base);
  for (const a of allowances) {
    if (!a.documentLevelAllowanceAmount) continue;
    const pct = a.documentLevelAllowancePercentage && r.chance(0.4) ? ` ${f.percent(a.documentLevelAllowancePercentage)}` : '';
    rows.push({
      label: withReason(`${L.allowance}${pct}`, a.documentLevelAllowanceReason),
      value: f.money(new Decimal(a.documentLevelAllowanceAmount).neg().toString()),
      marks:
        allowances.length === 1 && t.sumOfAllowancesOnDocumentLevel
          ? [['documentTotals.sumOfAllowancesOnDocumentLevel', t.sumOfAllowancesOnDocumentLevel]]
          : [],
    });
  }
  if (allowances.length > 1 && t.sumOfAllowancesOnDocumentLevel && r.chance(0.5)) {
    rows.push({
      label: L.allowanceSum,
      value: f.money(new Decimal(t.sumOfAllowancesOnDocumentLevel).neg().toString()),
      marks: [['documentTotals.sumOfAllowancesOnDocumentLevel', t.sumOfAllowancesOnDocumentLevel]],
    });
  }
  for (const a of charges) {
    if (!a.documentLevelChargeAmount) continue;
    rows.push({
      label: withReason(L.charge, a.documentLevelChargeReason),
      value: f.money(a.documentLevelChargeAmount),
      marks:
        charges.length === 1 && t.sumOfChargesOnDocumentLevel
          ? [['documentTotals.sumOfChargesOnDocumentLevel', t.sumOfChargesOnDocumentLevel]]
          : [],
    });
  }
  if (charges.length > 1 && t.sumOfChargesOnDocumentLevel && r.chance(0.5)) {
    rows.push({
      label: L.chargeSum,
      value: f.money(t.sumOfChargesOnDocumentLevel),
      marks: [['documentTotals.sumOfChargesOnDocumentLevel', t.sumOfChargesOnDocumentLevel]],
    });
  }
  if (t.invoiceTotalAmountWithoutVat) {
    const marks: Marks = [['documentTotals.invoiceTotalAmountWithoutVat', t.invoiceTotalAmountWithoutVat]];
    // Without allowances or charges the net total is the sum of the lines too.
    if (!adjusted && t.sumOfInvoiceLineNetAmount && new Decimal(t.sumOfInvoiceLineNetAmount).eq(t.invoiceTotalAmountWithoutVat))
      marks.push(['documentTotals.sumOfInvoiceLineNetAmount', t.sumOfInvoiceLineNetAmount]);
    rows.push({ label: L.netTotal, value: f.money(t.invoiceTotalAmountWithoutVat), marks, ruleAbove: adjusted });
  }
  const breakdown = inv.vatBreakdown ?? [];
  if (withVatRows) {
    breakdown.forEach((row, i) => {
      const marks: Marks = [];
      if (row.vatCategoryRate !== undefined) marks.push([`vatBreakdown[${i}].vatCategoryRate`, row.vatCategoryRate]);
      if (row.vatCategoryTaxAmount !== undefined) marks.push([`vatBreakdown[${i}].vatCategoryTaxAmount`, row.vatCategoryTaxAmount]);
      let text = `${L.vat} ${vatRateLabel(ctx, i)}`;
      if (ctx.spec.vatRowBase && row.vatCategoryTaxableAmount !== undefined) {
        text += ` ${L.on} ${f.money(row.vatCategoryTaxableAmount)}`;
        marks.push([`vatBreakdown[${i}].vatCategoryTaxableAmount`, row.vatCategoryTaxableAmount]);
      }
      marks.push(...categoryMarks(ctx, i, false));
      if (breakdown.length === 1 && t.invoiceTotalVatAmount) marks.push(['documentTotals.invoiceTotalVatAmount', t.invoiceTotalVatAmount]);
      rows.push({ label: text, value: f.money(row.vatCategoryTaxAmount ?? '0'), marks });
    });
  }
  if (t.invoiceTotalVatAmount && (!withVatRows || breakdown.length !== 1 || r.chance(0.3))) {
    rows.push({
      label: L.vatTotal,
      value: f.money(t.invoiceTotalVatAmount),
      marks: [['documentTotals.invoiceTotalVatAmount', t.invoiceTotalVatAmount]],
    });
  }
  if (t.invoiceTotalAmountWithVat)
    rows.push({
      label: L.grossTotal,
      value: f.money(t.invoiceTotalAmountWithVat),
      marks: [['documentTotals.invoiceTotalAmountWithVat', t.invoiceTotalAmountWithVat]],
      bold: true,
      ruleAbove: true,
    });
  if (nonZero(t.paidAmount))
    rows.push({
      label: L.paid,
      value: f.money(new Decimal(t.paidAmount).neg().toString()),
      marks: [['documentTotals.paidAmount', t.paidAmount]],
    });
  if (nonZero(t.roundingAmount)) rows.push({ label: L.rounding, value: f.money(t.roundingAmount), marks: [] });
  if (t.amountDueForPayment) {
    const due: Marks = [['documentTotals.amountDueForPayment', t.amountDueForPayment]];
    const same = t.invoiceTotalAmountWithVat !== undefined && new Decimal(t.amountDueForPayment).eq(t.invoiceTotalAmountWithVat);
    // Nothing paid, nothing rounded: the gross total is the amount due, and a second row is optional.
    if (!same || r.chance(0.5)) rows.push({ label: L.due, value: f.money(t.amountDueForPayment), marks: due, bold: true });
    else rows.at(-1)!.marks.push(...due);
  }
  return rows;
}

function drawRows(ctx: Ctx, rows: Row[], xLabel: number, xRight: number, y: number, size: number): number {
  const { c } = ctx;
  const labelW = xRight - xLabel - Math.max(0, ...rows.map((r) => c.width(r.value, size, r.bold))) - 10;
  for (const row of rows) {
    if (row.ruleAbove) c.rule(xLabel, y - 1, xRight, 0.5);
    const parts = c.wrap(row.label, labelW, size, row.bold);
    parts.forEach((p, k) => c.text(xLabel, y + k * lh(size), p, size, { bold: row.bold }));
    c.text(xRight, y, row.value, size, { bold: row.bold, align: 'right' });
    mark(ctx, row.marks);
    y += parts.length * lh(size) + 1;
  }
  return y;
}

/** Per-rate VAT table: rate | (category) | base | VAT | (gross), with a total row when asked. */
function vatTable(
  ctx: Ctx,
  x: number,
  width: number,
  y: number,
  size: number,
  o: { gross?: boolean; totals?: boolean; heading?: boolean; grid?: boolean } = {},
): number {
  const { c, inv, f, L } = ctx;
  const breakdown = inv.vatBreakdown ?? [];
  if (!breakdown.length) return y;
  const letters = ctx.spec.vatCategoryLetters;
  const t = inv.documentTotals ?? {};
  const heads = [L.rate, ...(letters ? [L.category] : []), L.base, L.tax, ...(o.gross ? [L.gross] : [])];
  const body = breakdown.map((row) => [
    f.percent(row.vatCategoryRate ?? '0'),
    ...(letters ? [row.vatCategoryCode ?? ''] : []),
    f.amount(row.vatCategoryTaxableAmount ?? '0'),
    f.amount(row.vatCategoryTaxAmount ?? '0'),
    ...(o.gross ? [f.amount(new Decimal(row.vatCategoryTaxableAmount ?? '0').plus(row.vatCategoryTaxAmount ?? '0').toString())] : []),
  ]);
  const total =
    o.totals && t.invoiceTotalAmountWithoutVat && t.invoiceTotalVatAmount
      ? [
          L.grossTotal.split(' ')[0]!,
          ...(letters ? [''] : []),
          f.amount(t.invoiceTotalAmountWithoutVat),
          f.amount(t.invoiceTotalVatAmount),
          ...(o.gross ? [f.amount(t.invoiceTotalAmountWithVat ?? '0')] : []),
        ]
      : undefined;
  // Columns as wide as their widest text; spare room spread over them, too little room makes the text smaller.
  let widths: number[] = [];
  for (;;) {
    widths = heads.map(
      (h, k) => Math.max(c.width(h, size, true), ...[...body, ...(total ? [total] : [])].map((r) => c.width(r[k]!, size))) + 10,
    );
    const sum = widths.reduce((a, w) => a + w, 0);
    if (sum <= width || size <= 6) {
      widths = widths.map((w) => (w * Math.max(width, sum)) / sum);
      break;
    }
    size -= 0.5;
  }
  const lefts: number[] = [];
  widths.reduce((acc, w) => (lefts.push(acc), acc + w), x);
  const full = widths.reduce((a, w) => a + w, 0);
  const row = (cells: string[], yy: number, bold: boolean) =>
    cells.forEach((v, k) =>
      c.text(k === 0 ? lefts[k]! + 4 : lefts[k]! + widths[k]! - 4, yy, v, size, { bold, align: k === 0 ? 'left' : 'right' }),
    );
  if (o.heading) {
    c.text(x, y, L.vatSummary, size, { bold: true });
    y += lh(size) + 2;
  }
  const top = y - 2;
  row(heads, y, true);
  y += lh(size) + 2;
  c.rule(x, y - 2, x + full, 0.5);
  breakdown.forEach((r, i) => {
    row(body[i]!, y, false);
    const marks: Marks = [];
    if (r.vatCategoryRate !== undefined) marks.push([`vatBreakdown[${i}].vatCategoryRate`, r.vatCategoryRate]);
    if (r.vatCategoryTaxableAmount !== undefined) marks.push([`vatBreakdown[${i}].vatCategoryTaxableAmount`, r.vatCategoryTaxableAmount]);
    if (r.vatCategoryTaxAmount !== undefined) marks.push([`vatBreakdown[${i}].vatCategoryTaxAmount`, r.vatCategoryTaxAmount]);
    mark(ctx, [...marks, ...categoryMarks(ctx, i, false)]);
    y += lh(size);
  });
  if (total) {
    c.rule(x, y, x + full, 0.5);
    y += 2;
    row(total, y, true);
    mark(ctx, [
      ['documentTotals.invoiceTotalAmountWithoutVat', t.invoiceTotalAmountWithoutVat!],
      ['documentTotals.invoiceTotalVatAmount', t.invoiceTotalVatAmount!],
      ...(o.gross && t.invoiceTotalAmountWithVat
        ? ([['documentTotals.invoiceTotalAmountWithVat', t.invoiceTotalAmountWithVat]] as Marks)
        : []),
    ]);
    y += lh(size);
  }
  if (o.grid) c.box(x, top, full, y - top + 2, { stroke: true });
  return y + 4;
}

/** Keeps a block of height h on the current page, else continues on a new one. */
function room(ctx: Ctx, y: number, h: number): number {
  if (y + h <= ctx.bottom) return y;
  ctx.c.addPage();
  return ctx.continuation(ctx.c.pages.length);
}

/** The totals block (rows, or rows plus a VAT table), right-aligned in [x, x + width]. */
function totalsBlock(ctx: Ctx, x: number, width: number, y: number, size: number, tableX = x): number {
  const rows = totalRows(ctx, ctx.spec.vatStyle === 'rows');
  const vatH = ctx.spec.vatStyle === 'table' ? ((ctx.inv.vatBreakdown?.length ?? 0) + 3) * lh(size) : 0;
  y = room(ctx, y, rows.length * lh(size) + vatH + 10);
  const tableWidth = Math.min(300, ctx.c.W - ctx.mr - tableX);
  const besideTable = ctx.spec.vatStyle === 'table' && x - tableX - 20 >= 180 && ctx.r.chance(0.5);
  const bottom = drawRows(ctx, rows, Math.max(x, ctx.c.W - ctx.mr - Math.max(200, width)), ctx.c.W - ctx.mr, y, size);
  if (ctx.spec.vatStyle !== 'table') return bottom + 6;
  const tableBottom = vatTable(ctx, tableX, besideTable ? x - tableX - 20 : tableWidth, besideTable ? y : bottom + 8, size - 0.5, {
    heading: ctx.r.chance(0.6),
  });
  return Math.max(bottom, tableBottom) + 6;
}

// ---------------------------------------------------------------- notes, payment, footer

/** Exemption notes (which print the category), notes and payment terms, as paragraphs. */
function notesBlock(ctx: Ctx, x: number, width: number, y: number, size: number): number {
  const { c, inv, r, spec } = ctx;
  const paragraphs: Array<{ text: string; marks: Marks; bold?: boolean }> = [];
  (inv.vatBreakdown ?? []).forEach((row, i) => {
    const code = row.vatCategoryCode;
    const notes = code ? EXEMPTION_NOTES[code]?.[spec.lang] : undefined;
    if (!notes) return;
    const reason = row.vatExemptionReasonText && r.chance(0.5) ? ` ${clean(row.vatExemptionReasonText)}` : '';
    paragraphs.push({ text: `${r.pick(notes)}${reason}`, marks: categoryMarks(ctx, i, true) });
  });
  if (spec.currency === 'note' && !ctx.printed.invoiceCurrencyCode && inv.invoiceCurrencyCode) {
    paragraphs.push({
      text: label(ctx, 'currencyNote', { cur: inv.invoiceCurrencyCode }),
      marks: [['invoiceCurrencyCode', inv.invoiceCurrencyCode]],
    });
  }
  const terms = clean(
    inv.paymentTerms
      ?.split('\n')
      .filter((l) => !l.trim().startsWith('#'))
      .join(' '),
  );
  if (terms && r.chance(0.6))
    paragraphs.push({ text: `${ctx.L.paymentTerms}: ${terms.length > 220 ? `${terms.slice(0, 217)}…` : terms}`, marks: [] });
  for (const n of (inv.invoiceNote ?? []).slice(0, 2)) {
    const text = clean(n.invoiceNote);
    if (text && !text.startsWith('#') && r.chance(0.4))
      paragraphs.push({ text: text.length > 240 ? `${text.slice(0, 237)}…` : text, marks: [] });
  }
  for (const p of paragraphs) {
    const parts = c.wrap(p.text, width, size);
    y = room(ctx, y, parts.length * lh(size));
    for (const part of parts) {
      c.text(x, y, part, size);
      y += lh(size);
    }
    mark(ctx, p.marks);
    y += 3;
  }
  return y;
}

function bankLines(ctx: Ctx): Array<{ text: string; marks: Marks }> {
  const { inv, f, L } = ctx;
  const out: Array<{ text: string; marks: Marks }> = [];
  (inv.paymentInstructions?.creditTransfer ?? []).slice(0, 2).forEach((t, i) => {
    if (t.paymentAccountName && ctx.r.chance(0.5)) out.push({ text: `${L.accountHolder}: ${clean(t.paymentAccountName)}`, marks: [] });
    if (t.paymentAccountIdentifier)
      out.push({
        text: `IBAN: ${f.iban(t.paymentAccountIdentifier)}`,
        marks: i === 0 ? [['paymentInstructions.creditTransfer[0].paymentAccountIdentifier', t.paymentAccountIdentifier]] : [],
      });
    if (t.paymentServiceProviderIdentifier)
      out.push({
        text: `${L.bic}: ${t.paymentServiceProviderIdentifier}`,
        marks:
          i === 0 ? [['paymentInstructions.creditTransfer[0].paymentServiceProviderIdentifier', t.paymentServiceProviderIdentifier]] : [],
      });
  });
  return out;
}

/** Bank details as a block or as one sentence ("Please transfer … by … to IBAN …"). */
function paymentBlock(ctx: Ctx, x: number, width: number, y: number, size: number): number {
  const { c, inv, f } = ctx;
  const t = inv.paymentInstructions?.creditTransfer?.[0];
  const due = inv.documentTotals?.amountDueForPayment;
  const payee =
    inv.payee?.payeeName && ctx.r.chance(0.6) ? [{ text: `${ctx.L.payee}: ${clean(inv.payee.payeeName)}`, marks: [] as Marks }] : [];
  if (ctx.spec.paySentence && t?.paymentAccountIdentifier && due && inv.paymentDueDate) {
    const text = label(ctx, 'pay', { amount: f.money(due), date: f.date(inv.paymentDueDate), iban: f.iban(t.paymentAccountIdentifier) });
    const parts = c.wrap(text, width, size);
    y = room(ctx, y, (parts.length + payee.length) * lh(size) + 4);
    for (const part of parts) {
      c.text(x, y, part, size);
      y += lh(size);
    }
    mark(ctx, [
      ['paymentInstructions.creditTransfer[0].paymentAccountIdentifier', t.paymentAccountIdentifier],
      ['documentTotals.amountDueForPayment', due],
      ['paymentDueDate', inv.paymentDueDate],
    ]);
    return drawLines(ctx, x, y, payee, size) + 4;
  }
  const lines = [...payee, ...bankLines(ctx)];
  if (!lines.length) return y;
  y = room(ctx, y, (lines.length + 1) * lh(size) + 4);
  c.text(x, y, ctx.L.bank, size, { bold: true });
  return drawLines(ctx, x, y + lh(size), lines, size) + 4;
}

/** The seller's legal lines: VAT id, tax number, registration, BT-33. */
function legalLines(ctx: Ctx): Array<{ text: string; marks: Marks }> {
  const s = ctx.inv.seller ?? {};
  const out: Array<{ text: string; marks: Marks }> = [];
  if (s.sellerVatIdentifier)
    out.push({ text: `${ctx.L.vatId}: ${s.sellerVatIdentifier}`, marks: [['seller.sellerVatIdentifier', s.sellerVatIdentifier]] });
  if (s.sellerTaxRegistrationIdentifier)
    out.push({
      text: `${ctx.L.taxNumber}: ${s.sellerTaxRegistrationIdentifier}`,
      marks: [['seller.sellerTaxRegistrationIdentifier', s.sellerTaxRegistrationIdentifier]],
    });
  if (s.sellerLegalRegistrationIdentifier) out.push({ text: `${ctx.L.registration}: ${s.sellerLegalRegistrationIdentifier}`, marks: [] });
  const extra = clean(s.sellerAdditionalLegalInformation);
  if (extra && ctx.r.chance(0.5)) out.push({ text: extra.length > 90 ? `${extra.slice(0, 87)}…` : extra, marks: [] });
  return out;
}

function contactLines(ctx: Ctx): Array<{ text: string; marks: Marks }> {
  const k = ctx.inv.seller?.sellerContact;
  return [
    ...(k?.sellerContactTelephoneNumber ? [{ text: `${ctx.L.phone}: ${clean(k.sellerContactTelephoneNumber)}`, marks: [] as Marks }] : []),
    ...(k?.sellerContactEmailAddress ? [{ text: `${ctx.L.email}: ${clean(k.sellerContactEmailAddress)}`, marks: [] as Marks }] : []),
  ];
}

/** Footer on every page: columns of lines (empty columns dropped) and the page number. */
function footer(
  ctx: Ctx,
  columns: Array<Array<{ text: string; marks: Marks; bold?: boolean }>>,
  size: number,
  o: { rule?: boolean; centered?: boolean; page?: 'left' | 'right' | 'center' | 'top-right' } = {},
): void {
  const { c } = ctx;
  const cols = columns.filter((col) => col.length);
  const height = Math.max(0, ...cols.map((col) => col.length)) * lh(size);
  const y0 = c.H - 28 - height;
  const n = c.pages.length;
  c.pages.forEach((page, i) => {
    const saved = c.page;
    c.page = page;
    if (o.rule) c.rule(ctx.ml, y0 - 5, c.W - ctx.mr);
    const width = (c.W - ctx.ml - ctx.mr) / Math.max(1, cols.length);
    cols.forEach((col, k) => {
      let y = y0;
      for (const l of col) {
        const text = c.wrap(l.text, width - 6, size)[0] ?? '';
        c.text(o.centered ? c.W / 2 : ctx.ml + k * width, y, text, size, { align: o.centered ? 'center' : 'left', bold: l.bold });
        if (text === clean(l.text)) mark(ctx, l.marks);
        y += lh(size);
      }
    });
    const pageText = label(ctx, 'page', { n: String(i + 1), m: String(n) });
    if (o.page === 'top-right') c.text(c.W - ctx.mr, 22, pageText, size, { align: 'right' });
    else if (o.page)
      c.text(o.page === 'left' ? ctx.ml : o.page === 'right' ? c.W - ctx.mr : c.W / 2, c.H - 20, pageText, size, {
        align: o.page === 'center' ? 'center' : o.page,
      });
    c.page = saved;
  });
}

/** A footer in lines joined by separators, centered (French, boxed, English families). */
function joinedFooter(
  ctx: Ctx,
  groups: Array<Array<{ text: string; marks: Marks }>>,
  size: number,
  page: 'left' | 'right' | 'center',
): void {
  const sep = ctx.r.pick([' – ', ' · ', ' | ']);
  const lines = groups
    .filter((g) => g.length)
    .flatMap((g) => {
      // Keep each line within the page width: split a group over several lines where needed.
      const out: Array<{ text: string; marks: Marks }> = [];
      let current: { text: string; marks: Marks } | undefined;
      for (const item of g) {
        const joined = current ? `${current.text}${sep}${item.text}` : item.text;
        if (current && ctx.c.width(joined, size) > ctx.c.W - ctx.ml - ctx.mr - 10) {
          out.push(current);
          current = { text: item.text, marks: [...item.marks] };
        } else current = { text: joined, marks: [...(current?.marks ?? []), ...item.marks] };
      }
      if (current) out.push(current);
      return out;
    });
  footer(ctx, [lines], size, { centered: true, rule: ctx.r.chance(0.5), page });
}

function sellerHeadName(ctx: Ctx): { text: string; marks: Marks } {
  const s = ctx.inv.seller ?? {};
  if (ctx.spec.tradingNameHead && s.sellerTradingName) return { text: clean(s.sellerTradingName), marks: [] };
  return { text: clean(s.sellerName ?? ''), marks: s.sellerName ? [['seller.sellerName', s.sellerName]] : [] };
}

function addressFooterColumn(ctx: Ctx): Array<{ text: string; marks: Marks; bold?: boolean }> {
  return partyLines(ctx, 'seller');
}

// ---------------------------------------------------------------- families

type FamilyLayout = (ctx: Ctx) => void;

function continuationHeader(ctx: Ctx, size: number): (page: number) => number {
  return (page) => {
    const { c, inv } = ctx;
    let y = 40;
    if (ctx.r.chance(0.7) && inv.invoiceNumber) {
      c.text(ctx.ml, y, `${title(ctx).text} ${inv.invoiceNumber}`, size, { bold: true });
      c.text(c.W - ctx.mr, y, label(ctx, 'page', { n: String(page), m: '' }).replace(/\s*(von|of|sur|di|van|\/)\s*$/, ''), size, {
        align: 'right',
      });
      y += lh(size) + 10;
    }
    return y;
  };
}

/** DIN 5008: sender line over the left address window, info block right, 3-column footer. */
const din5008: FamilyLayout = (ctx) => {
  const { c, spec, r } = ctx;
  const s = spec.size;
  const head = sellerHeadName(ctx);
  const centered = r.chance(0.4);
  c.text(centered ? c.W / 2 : c.W - ctx.mr, 40, head.text, s + 7, { bold: true, align: centered ? 'center' : 'right' });
  mark(ctx, head.marks);
  if (r.chance(0.5)) drawLines(ctx, c.W - ctx.mr, 40 + lh(s + 7), contactLines(ctx), s - 1, { align: 'right' });
  // Sender line, 45 mm from the top, over the window.
  const seller = partyLines(ctx, 'seller', { name: true });
  const senderLine = seller.map((l) => l.text).join(r.pick([' · ', ' - ', ', ', ' | ']));
  c.text(ctx.ml, 118, senderLine, Math.max(6, s - 2.5));
  if (r.chance(0.6)) c.rule(ctx.ml, 118 + lh(Math.max(6, s - 2.5)), ctx.ml + Math.min(250, c.width(senderLine, Math.max(6, s - 2.5))), 0.4);
  mark(
    ctx,
    seller.flatMap((l) => l.marks),
  );
  let yb = drawLines(ctx, ctx.ml, 138, partyLines(ctx, 'buyer', { contact: r.chance(0.3) }), s + 1, { width: 230, boldFirst: false });
  const pairs = headerPairs(ctx, spec.numberInTitle ? new Set<LabelKey>(['invoiceNumber']) : new Set());
  if (r.chance(0.5) && ctx.inv.buyer?.buyerVatIdentifier)
    pairs.push({
      key: 'buyerVatId',
      label: ctx.L.buyerVatId,
      value: ctx.inv.buyer.buyerVatIdentifier,
      marks: [['buyer.buyerVatIdentifier', ctx.inv.buyer.buyerVatIdentifier]],
    });
  const infoX = c.W - ctx.mr - 215;
  const yi = drawPairs(ctx, pairs, infoX, 138, s, r.chance(0.5) ? { xRight: c.W - ctx.mr } : {});
  let y = Math.max(yb, yi, 250) + 14;
  const t = title(ctx);
  c.text(
    ctx.ml,
    y,
    spec.numberInTitle && ctx.inv.invoiceNumber
      ? `${t.text} ${r.pick(['Nr.', 'Nr', '']).trim()} ${ctx.inv.invoiceNumber}`.replace(/\s+/g, ' ')
      : t.text,
    s + 5,
    { bold: true },
  );
  mark(ctx, t.marks);
  if (spec.numberInTitle && ctx.inv.invoiceNumber) mark(ctx, [['invoiceNumber', ctx.inv.invoiceNumber]]);
  y += lh(s + 5) + 6;
  if (r.chance(0.5)) {
    c.text(ctx.ml, y, ctx.L.intro, s);
    y += lh(s) + 6;
  }
  const width = c.W - ctx.ml - ctx.mr;
  y = itemTable(ctx, ctx.ml, width, y, { size: s, fillHeader: r.chance(0.4) ? 0.88 : undefined, zebra: r.chance(0.3) });
  y = totalsBlock(ctx, ctx.ml + width / 2, width / 2, y + 4, s, ctx.ml);
  y = notesBlock(ctx, ctx.ml, width, y + 6, s);
  const bankInFooter = r.chance(0.7);
  if (!bankInFooter || spec.paySentence) y = paymentBlock(ctx, ctx.ml, width, y + 4, s);
  footer(
    ctx,
    [addressFooterColumn(ctx), [...(bankInFooter ? bankLines(ctx) : []), ...contactLines(ctx)], legalLines(ctx)],
    Math.max(6, s - 2),
    { rule: true, page: r.pick(['right', 'center', 'top-right'] as const) },
  );
};

/** English: letterhead left, big title right with a label column, Bill to / Ship to blocks. */
const enBillTo: FamilyLayout = (ctx) => {
  const { c, spec, r, inv } = ctx;
  const s = spec.size;
  const head = sellerHeadName(ctx);
  c.text(ctx.ml, 40, head.text, s + 6, { bold: true });
  mark(ctx, head.marks);
  const sellerLines = partyLines(ctx, 'seller', { name: false });
  let yl = drawLines(ctx, ctx.ml, 40 + lh(s + 6) + 2, [...sellerLines, ...contactLines(ctx)], s);
  const t = title(ctx);
  c.text(c.W - ctx.mr, 36, t.text.toUpperCase(), s + 12, { bold: true, align: 'right' });
  mark(ctx, t.marks);
  const pairs = headerPairs(ctx);
  const yr = drawPairs(ctx, pairs, c.W - ctx.mr - 210, 40 + lh(s + 12) + 4, s, { xRight: c.W - ctx.mr, boldLabels: r.chance(0.5) });
  let y = Math.max(yl, yr) + 18;
  const blockW = (c.W - ctx.ml - ctx.mr) / 3;
  c.text(ctx.ml, y, ctx.L.billTo.toUpperCase(), s - 0.5, { bold: true, grey: true });
  let yb = drawLines(ctx, ctx.ml, y + lh(s) + 2, partyLines(ctx, 'buyer', { vat: r.chance(0.6), contact: r.chance(0.4) }), s, {
    width: blockW * 1.3,
  });
  if (inv.deliveryInformation?.deliverToAddress) {
    c.text(ctx.ml + blockW * 1.5, y, ctx.L.shipTo.toUpperCase(), s - 0.5, { bold: true, grey: true });
    yb = Math.max(yb, drawLines(ctx, ctx.ml + blockW * 1.5, y + lh(s) + 2, partyLines(ctx, 'deliverTo'), s, { width: blockW * 1.3 }));
  }
  y = yb + 16;
  const width = c.W - ctx.ml - ctx.mr;
  y = itemTable(ctx, ctx.ml, width, y, { size: s, fillHeader: 0.85, zebra: r.chance(0.4) });
  y = totalsBlock(ctx, ctx.ml + width * 0.45, width * 0.55, y + 4, s, ctx.ml);
  y = paymentBlock(ctx, ctx.ml, width * 0.6, y + 6, s);
  y = notesBlock(ctx, ctx.ml, width, y + 4, s);
  const legal = legalLines(ctx);
  joinedFooter(
    ctx,
    [
      [
        {
          text: head.text === clean(inv.seller?.sellerName) ? head.text : clean(inv.seller?.sellerName),
          marks: inv.seller?.sellerName ? [['seller.sellerName', inv.seller.sellerName]] : [],
        },
        ...legal.slice(0, 2),
      ],
      legal.slice(2),
    ],
    Math.max(6, s - 2),
    'center',
  );
};

/** French: seller top left, address window on the right, "Facture n°", SIRET / TVA footer. */
const frFacture: FamilyLayout = (ctx) => {
  const { c, spec, r, inv } = ctx;
  const s = spec.size;
  const head = sellerHeadName(ctx);
  c.text(ctx.ml, 40, head.text, s + 5, { bold: true });
  mark(ctx, head.marks);
  let yl = drawLines(ctx, ctx.ml, 40 + lh(s + 5) + 2, [...partyLines(ctx, 'seller', { name: false }), ...contactLines(ctx)], s);
  const wx = c.W / 2 + 20;
  if (r.chance(0.5)) c.text(wx, 128, ctx.L.billTo, s - 1, { grey: true });
  const yw = drawLines(ctx, wx, 142, partyLines(ctx, 'buyer', { vat: r.chance(0.4) }), s + 1, { width: c.W - ctx.mr - wx });
  let y = Math.max(yl, yw, 235) + 14;
  const t = title(ctx);
  const num = inv.invoiceNumber ?? '';
  const inTitle = spec.numberInTitle || r.chance(0.5);
  c.text(ctx.ml, y, inTitle ? `${t.text} ${t.text === t.text.toUpperCase() ? 'N°' : 'n°'} ${num}` : t.text, s + 6, { bold: true });
  mark(ctx, [...t.marks, ...(inTitle && num ? ([['invoiceNumber', num]] as Marks) : [])]);
  y += lh(s + 6) + 4;
  const pairs = headerPairs(ctx, inTitle ? new Set<LabelKey>(['invoiceNumber']) : new Set());
  if (r.chance(0.5)) {
    // All on one or two lines: "Date : 13/04/2018   Échéance : 13/05/2018".
    let x = ctx.ml;
    for (const p of pairs) {
      const text = `${p.label} : ${p.value}`;
      const w = c.width(text, s) + 16;
      if (x + w > c.W - ctx.mr) {
        x = ctx.ml;
        y += lh(s);
      }
      c.text(x, y, text, s);
      mark(ctx, p.marks);
      x += w;
    }
    y += lh(s) + 10;
  } else
    y =
      drawPairs(
        ctx,
        pairs.map((p) => ({ ...p, label: `${p.label} ` })),
        ctx.ml,
        y,
        s,
      ) + 10;
  const width = c.W - ctx.ml - ctx.mr;
  y = itemTable(ctx, ctx.ml, width, y, { size: s, grid: r.chance(0.5), fillHeader: r.chance(0.5) ? 0.9 : undefined });
  y = totalsBlock(ctx, ctx.ml + width * 0.5, width * 0.5, y + 4, s, ctx.ml);
  y = notesBlock(ctx, ctx.ml, width, y + 6, s - 0.5);
  const bank = bankLines(ctx);
  if (r.chance(0.5) || spec.paySentence) y = paymentBlock(ctx, ctx.ml, width, y + 4, s);
  const name = clean(inv.seller?.sellerName);
  const address = partyLines(ctx, 'seller', { name: false }).map((l) => ({ text: l.text, marks: l.marks }));
  joinedFooter(
    ctx,
    [
      [{ text: name, marks: inv.seller?.sellerName ? [['seller.sellerName', inv.seller.sellerName]] : [] }, ...address],
      legalLines(ctx),
      bank,
    ],
    Math.max(6, s - 2),
    r.pick(['right', 'center'] as const),
  );
};

/** Italian: cedente / cessionario side by side, "Fattura n. X del …", grid table, Riepilogo IVA. */
const itFattura: FamilyLayout = (ctx) => {
  const { c, spec, r, inv, f } = ctx;
  const s = spec.size;
  const half = (c.W - ctx.ml - ctx.mr) / 2;
  const head = sellerHeadName(ctx);
  c.text(ctx.ml, 40, head.text, s + 5, { bold: true });
  mark(ctx, head.marks);
  const sellerBlock = [...partyLines(ctx, 'seller', { name: false, vat: true }), ...contactLines(ctx)];
  if (inv.seller?.sellerTaxRegistrationIdentifier && r.chance(0.6))
    sellerBlock.push({
      text: `${ctx.L.taxNumber}: ${inv.seller.sellerTaxRegistrationIdentifier}`,
      marks: [['seller.sellerTaxRegistrationIdentifier', inv.seller.sellerTaxRegistrationIdentifier]],
    });
  const yl = drawLines(ctx, ctx.ml, 40 + lh(s + 5) + 2, sellerBlock, s, { width: half - 10 });
  const bx = ctx.ml + half + 10;
  c.text(bx, 100, ctx.L.billTo, s - 0.5, { bold: true });
  const yb = drawLines(ctx, bx, 100 + lh(s) + 2, partyLines(ctx, 'buyer', { vat: true }), s + 0.5, { width: half - 10 });
  let y = Math.max(yl, yb) + 18;
  const t = title(ctx);
  const width = c.W - ctx.ml - ctx.mr;
  if (r.chance(0.5) && inv.invoiceNumber && inv.invoiceIssueDate) {
    c.box(ctx.ml, y - 3, width, lh(s + 2) + 6, { fill: 0.92 });
    c.text(
      ctx.ml + 6,
      y,
      `${t.text} ${r.pick(['n.', 'N.', 'nr.'])} ${inv.invoiceNumber} ${r.pick(['del', 'del giorno'])} ${f.date(inv.invoiceIssueDate)}`,
      s + 2,
      { bold: true },
    );
    mark(ctx, [...t.marks, ['invoiceNumber', inv.invoiceNumber], ['invoiceIssueDate', inv.invoiceIssueDate]]);
    y += lh(s + 2) + 10;
    const pairs = headerPairs(ctx, new Set<LabelKey>(['invoiceNumber', 'issueDate']));
    if (pairs.length) y = drawStacked(ctx, pairs, ctx.ml, y, width, Math.min(5, pairs.length), s, { cells: true }) + 10;
  } else {
    c.text(ctx.ml, y, t.text, s + 4, { bold: true });
    mark(ctx, t.marks);
    y += lh(s + 4) + 4;
    y = drawStacked(ctx, headerPairs(ctx), ctx.ml, y, width, 4, s, { cells: true }) + 10;
  }
  y = itemTable(ctx, ctx.ml, width, y, { size: s, grid: true, fillHeader: 0.88 });
  // Riepilogo IVA left, totals right.
  const rows = totalRows(ctx, false);
  y = room(ctx, y + 4, Math.max(rows.length, (inv.vatBreakdown?.length ?? 0) + 3) * lh(s) + 10);
  const yt = vatTable(ctx, ctx.ml, half - 10, y, s - 0.5, { heading: true });
  const yr = drawRows(ctx, rows, ctx.ml + half + 10, c.W - ctx.mr, y, s);
  y = Math.max(yt, yr) + 8;
  y = notesBlock(ctx, ctx.ml, width, y, s - 0.5);
  y = paymentBlock(ctx, ctx.ml, width, y + 4, s);
  joinedFooter(
    ctx,
    [
      [
        { text: clean(inv.seller?.sellerName), marks: inv.seller?.sellerName ? [['seller.sellerName', inv.seller.sellerName]] : [] },
        ...legalLines(ctx),
      ],
    ],
    Math.max(6, s - 2),
    'right',
  );
};

/** Dutch: letterhead right with KvK / btw / IBAN, buyer left, horizontal info strip, payment sentence. */
const nlFactuur: FamilyLayout = (ctx) => {
  const { c, spec, r, inv } = ctx;
  const s = spec.size;
  const head = sellerHeadName(ctx);
  c.text(c.W - ctx.mr, 40, head.text, s + 6, { bold: true, align: 'right' });
  mark(ctx, head.marks);
  const bank = bankLines(ctx).filter((l) => l.text.startsWith('IBAN'));
  const yl = drawLines(
    ctx,
    c.W - ctx.mr,
    40 + lh(s + 6) + 2,
    [...partyLines(ctx, 'seller', { name: false }), ...contactLines(ctx), ...legalLines(ctx).slice(0, 2), ...(r.chance(0.6) ? bank : [])],
    s - 0.5,
    { align: 'right' },
  );
  const yb = drawLines(ctx, ctx.ml, 150, partyLines(ctx, 'buyer', { contact: r.chance(0.4), vat: r.chance(0.3) }), s + 1, { width: 230 });
  let y = Math.max(yl, yb, 250) + 16;
  const t = title(ctx);
  c.text(ctx.ml, y, t.text, s + 10, { bold: true });
  mark(ctx, t.marks);
  y += lh(s + 10) + 8;
  const width = c.W - ctx.ml - ctx.mr;
  const pairs = headerPairs(ctx);
  y = drawStacked(ctx, pairs, ctx.ml, y, width, Math.min(5, Math.max(3, pairs.length)), s) + 12;
  y = itemTable(ctx, ctx.ml, width, y, { size: s, zebra: r.chance(0.5), fillHeader: r.chance(0.3) ? 0.9 : undefined });
  y = totalsBlock(ctx, ctx.ml + width * 0.5, width * 0.5, y + 4, s, ctx.ml);
  y = paymentBlock(ctx, ctx.ml, width, y + 8, s);
  notesBlock(ctx, ctx.ml, width, y + 4, s - 0.5);
  footer(ctx, [], s - 1, { page: 'right' });
};

/** Modern: dark header band, stacked details, per-rate summary table and an amount-due box. */
const modernSummary: FamilyLayout = (ctx) => {
  const { c, spec, r, inv, f } = ctx;
  const s = spec.size;
  c.box(0, 0, c.W, 78, { fill: r.pick([0.15, 0.25, 0.35]) });
  const head = sellerHeadName(ctx);
  c.text(ctx.ml, 26, head.text, s + 8, { bold: true, white: true });
  mark(ctx, head.marks);
  const t = title(ctx);
  c.text(c.W - ctx.mr, 28, t.text.toUpperCase(), s + 6, { bold: true, white: true, align: 'right' });
  mark(ctx, t.marks);
  const width = c.W - ctx.ml - ctx.mr;
  const col = width / 3;
  let y = 100;
  c.text(ctx.ml, y, ctx.L.billTo, s - 1, { grey: true });
  const yb = drawLines(ctx, ctx.ml, y + lh(s) + 2, partyLines(ctx, 'buyer', { vat: r.chance(0.5) }), s, { width: col - 10 });
  c.text(ctx.ml + col, y, ctx.L.from, s - 1, { grey: true });
  const ys = drawLines(
    ctx,
    ctx.ml + col,
    y + lh(s) + 2,
    [...partyLines(ctx, 'seller', { name: !ctx.printed.seller || r.chance(0.5) }), ...contactLines(ctx)],
    s,
    { width: col - 10 },
  );
  const yd = drawStacked(ctx, headerPairs(ctx), ctx.ml + 2 * col, y, col, 2, s);
  y = Math.max(yb, ys, yd) + 20;
  y = itemTable(ctx, ctx.ml, width, y, { size: s, zebra: true, boldNames: r.chance(0.5) });
  // The summary table carries net, VAT and gross; the rows above it only the lines' sum, allowances and charges.
  const summarised = new Set([ctx.L.netTotal, ctx.L.vatTotal, ctx.L.grossTotal, ctx.L.paid, ctx.L.rounding, ctx.L.due]);
  const rows = totalRows(ctx, false).filter((row) => !summarised.has(row.label));
  y = room(ctx, y + 6, ((inv.vatBreakdown?.length ?? 0) + 4 + rows.length) * lh(s) + 50);
  y = drawRows(ctx, rows, ctx.ml + width * 0.5, c.W - ctx.mr, y, s);
  y = vatTable(ctx, ctx.ml + width * 0.25, width * 0.75, y + 4, s, { gross: true, totals: true, heading: r.chance(0.5) });
  const t2 = inv.documentTotals ?? {};
  if (nonZero(t2.paidAmount))
    y = drawRows(
      ctx,
      [
        {
          label: ctx.L.paid,
          value: f.money(new Decimal(t2.paidAmount).neg().toString()),
          marks: [['documentTotals.paidAmount', t2.paidAmount]],
        },
      ],
      ctx.ml + width * 0.5,
      c.W - ctx.mr,
      y,
      s,
    );
  if (t2.amountDueForPayment) {
    c.box(ctx.ml + width * 0.5, y + 4, width * 0.5, lh(s + 4) + 10, { fill: 0.9 });
    c.text(ctx.ml + width * 0.5 + 8, y + 9, ctx.L.due, s + 2, { bold: true });
    c.text(c.W - ctx.mr - 8, y + 9, f.money(t2.amountDueForPayment), s + 4, { bold: true, align: 'right' });
    mark(ctx, [['documentTotals.amountDueForPayment', t2.amountDueForPayment]]);
    if (spec.currency === 'note' && inv.invoiceCurrencyCode && !ctx.printed.invoiceCurrencyCode) {
      c.text(ctx.ml + width * 0.5 + 8, y + 9 + lh(s + 2), inv.invoiceCurrencyCode, s - 1, { grey: true });
      mark(ctx, [['invoiceCurrencyCode', inv.invoiceCurrencyCode]]);
    }
    y += lh(s + 4) + 20;
  }
  y = paymentBlock(ctx, ctx.ml, width * 0.6, y, s);
  notesBlock(ctx, ctx.ml, width, y + 4, s - 0.5);
  footer(
    ctx,
    [
      [
        { text: clean(inv.seller?.sellerName), marks: inv.seller?.sellerName ? [['seller.sellerName', inv.seller.sellerName]] : [] },
        ...legalLines(ctx).slice(0, 2),
      ],
      bankLines(ctx),
    ],
    Math.max(6, s - 2),
    { rule: false, page: 'left' },
  );
};

/** Boxed: a two-column header box (parties left, a grid of labelled cells right), grid table, boxed totals. */
const boxedHeader: FamilyLayout = (ctx) => {
  const { c, spec, r, inv } = ctx;
  const s = spec.size;
  const width = c.W - ctx.ml - ctx.mr;
  const half = width / 2;
  const t = title(ctx);
  c.text(ctx.ml, 30, t.text.toUpperCase(), s + 8, { bold: true });
  mark(ctx, t.marks);
  const top = 30 + lh(s + 8) + 6;
  // Left cell: seller over buyer.
  const head = sellerHeadName(ctx);
  c.text(ctx.ml + 6, top + 6, head.text, s + 2, { bold: true });
  mark(ctx, head.marks);
  let yl = drawLines(ctx, ctx.ml + 6, top + 6 + lh(s + 2), partyLines(ctx, 'seller', { name: false, vat: r.chance(0.5) }), s - 0.5, {
    width: half - 12,
  });
  yl += 4;
  const split = yl;
  c.text(ctx.ml + 6, yl + 4, ctx.L.billTo, s - 1, { grey: true });
  yl = drawLines(ctx, ctx.ml + 6, yl + 4 + lh(s - 1), partyLines(ctx, 'buyer', { vat: r.chance(0.5) }), s, { width: half - 12 });
  // Right cell: labelled cells, two per row.
  const yr = drawStacked(ctx, headerPairs(ctx), ctx.ml + half, top, half, 2, s, { cells: true });
  const bottom = Math.max(yl, yr) + 6;
  c.box(ctx.ml, top, width, bottom - top, { stroke: true });
  c.rule(ctx.ml, split, ctx.ml + half);
  c.vrule(ctx.ml + half, top, bottom);
  let y = bottom + 16;
  if (inv.deliveryInformation?.deliverToAddress && r.chance(0.6)) {
    c.text(ctx.ml, y, `${ctx.L.shipTo}:`, s, { bold: true });
    const lines = partyLines(ctx, 'deliverTo')
      .map((l) => l.text)
      .join(', ');
    c.text(ctx.ml + c.width(`${ctx.L.shipTo}: `, s, true) + 4, y, lines, s);
    y += lh(s) + 10;
  }
  y = itemTable(ctx, ctx.ml, width, y, { size: s, grid: true, fillHeader: r.chance(0.5) ? 0.85 : undefined });
  const rows = totalRows(ctx, spec.vatStyle === 'rows');
  y = room(ctx, y + 6, rows.length * lh(s) + 16);
  const bx = ctx.ml + half;
  const yEnd = drawRows(ctx, rows, bx + 6, c.W - ctx.mr - 6, y + 5, s);
  c.box(bx, y, half, yEnd - y + 4, { stroke: true });
  y = yEnd + 10;
  if (spec.vatStyle === 'table') y = vatTable(ctx, ctx.ml, half, y, s - 0.5, { heading: true, grid: r.chance(0.5) });
  y = notesBlock(ctx, ctx.ml, width, y + 4, s - 0.5);
  y = paymentBlock(ctx, ctx.ml, width, y + 4, s);
  joinedFooter(
    ctx,
    [
      [
        { text: clean(inv.seller?.sellerName), marks: inv.seller?.sellerName ? [['seller.sellerName', inv.seller.sellerName]] : [] },
        ...legalLines(ctx).slice(0, 2),
        ...bankLines(ctx),
      ],
    ],
    Math.max(6, s - 2),
    'center',
  );
};

const LAYOUTS: Record<Family, FamilyLayout> = {
  din5008,
  'en-billto': enBillTo,
  'fr-facture': frFacture,
  'it-fattura': itFattura,
  'nl-factuur': nlFactuur,
  'modern-summary': modernSummary,
  'boxed-header': boxedHeader,
};

const MARGINS: Record<Family, [number, number]> = {
  din5008: [70, 57],
  'en-billto': [50, 50],
  'fr-facture': [45, 45],
  'it-fattura': [40, 40],
  'nl-factuur': [55, 55],
  'modern-summary': [48, 48],
  'boxed-header': [40, 40],
};

// ---------------------------------------------------------------- entry points

export interface Generated {
  pdf: Uint8Array;
  /** The invoice reduced to what the page prints: the truth to score a reader against. */
  printed: Invoice;
  spec: LayoutSpec;
  pages: number;
}

/** Empty objects and arrays left by unprinted parts are dropped; array positions of lines and VAT rows are kept. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => prune(v) ?? {});
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const p = prune(v);
      if (p !== undefined && !(typeof p === 'object' && !Array.isArray(p) && Object.keys(p as object).length === 0)) out[k] = p;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

export async function renderInvoice(invoice: Invoice, spec: LayoutSpec): Promise<Generated> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await loadFonts(doc, spec.font);
  const [W, H] = spec.page === 'Letter' ? [612, 792] : [595.28, 841.89];
  const c = new Canvas(doc, fonts, W, H);
  c.addPage();
  const [ml, mr] = MARGINS[spec.family];
  const printed: Record<string, unknown> = {
    invoiceLine: (invoice.invoiceLine ?? []).map(() => ({})),
    vatBreakdown: (invoice.vatBreakdown ?? []).map(() => ({})),
  };
  const ctx: Ctx = {
    inv: invoice,
    spec,
    c,
    r: rng(hash(`${spec.family}:${spec.seed}:render`)),
    f: new Formats(spec, invoice.invoiceCurrencyCode ?? 'EUR'),
    L: spec.labels,
    printed,
    bottom: H - 110,
    ml,
    mr,
    continuation: () => 50,
  };
  ctx.continuation = continuationHeader(ctx, spec.size);
  LAYOUTS[spec.family](ctx);
  // The currency is printed wherever an amount carries its symbol or code.
  if (spec.currency !== 'note' && invoice.invoiceCurrencyCode) setPath(printed, 'invoiceCurrencyCode', invoice.invoiceCurrencyCode);
  const result = (prune(printed) ?? {}) as Invoice;
  // VAT rows are matched by rate: a row whose rate was not printed cannot be judged.
  if (result.vatBreakdown) result.vatBreakdown = result.vatBreakdown.filter((row) => row.vatCategoryRate !== undefined);
  const bytes = await doc.save({ useObjectStreams: false });
  return { pdf: bytes, printed: result, spec, pages: c.pages.length };
}

export async function generateInvoicePdf(invoice: Invoice, family: Family, seed: number): Promise<Generated> {
  return renderInvoice(invoice, layoutSpec(family, seed));
}

// ---------------------------------------------------------------- the seed list

export interface SeedItem {
  /** XML file relative to ../shared/corpus. */
  source: string;
  family: Family;
  seed: number;
}

export interface SeedList {
  description: string;
  heldOut: Family[];
  items: SeedItem[];
}

export function readSeedList(file: string): SeedList {
  const list = JSON.parse(readFileSync(file, 'utf8')) as SeedList;
  for (const item of list.items) if (!FAMILIES.includes(item.family)) throw new Error(`${file}: unknown family ${item.family}`);
  return list;
}

// ---------------------------------------------------------------- placeholders

/**
 * The XRechnung testsuite fills its parties with placeholders ("[Seller name]", "[Buyer city]",
 * "[HRA-Eintrag]"): no invoice a user sends prints those. Each becomes a value of the kind its
 * field holds, drawn from the seed, so that the generated page reads like a real one and its
 * truth is still known by construction. Names are composed from common German family names,
 * trades and legal forms (the testsuite's invoices are German). Placeholders of other fields
 * (notes, exemption texts, item attributes) stay as they are; nothing else is changed.
 */
const FAMILY_NAMES = [
  'Albrecht',
  'Brandt',
  'Engel',
  'Fischer',
  'Hartmann',
  'Hoffmann',
  'Keller',
  'Krüger',
  'Lindner',
  'Lorenz',
  'Möller',
  'Neumann',
  'Roth',
  'Schulte',
  'Seidel',
  'Vogel',
  'Winkler',
  'Ziegler',
];
const TRADES = [
  'Bürotechnik',
  'Haustechnik',
  'Elektrotechnik',
  'Logistik',
  'Metallbau',
  'Softwareentwicklung',
  'Beratung',
  'Gebäudeservice',
  'Medizintechnik',
  'Druckerei',
  'Verlag',
  'Messebau',
];
const LEGAL_FORMS = ['GmbH', 'GmbH & Co. KG', 'AG', 'KG', 'e.K.', 'OHG', 'UG (haftungsbeschränkt)'];
const STREETS = [
  'Hauptstraße',
  'Bahnhofstraße',
  'Gartenweg',
  'Industriestraße',
  'Lindenallee',
  'Am Markt',
  'Schillerstraße',
  'Mühlenweg',
  'Kirchplatz',
  'Hafenstraße',
];
const CITIES = [
  'Berlin',
  'Hamburg',
  'München',
  'Köln',
  'Frankfurt am Main',
  'Stuttgart',
  'Leipzig',
  'Dresden',
  'Hannover',
  'Nürnberg',
  'Freiburg',
  'Kiel',
  'Bremen',
  'Münster',
];
const PERSONS = ['Anna Berger', 'Jonas Weber', 'Lea Schmitt', 'Paul Wagner', 'Marie Koch', 'Felix Richter'];

const PLACEHOLDER = /^\[[^\]]+\]$/;

const BICS = ['COBADEFFXXX', 'DEUTDEDBXXX', 'GENODEM1GLS', 'HASPDEHHXXX', 'BYLADEM1001', 'SOLADES1HDB'];

/** A value for a placeholder in the field `key` (the model's name); undefined where no realistic one is known, and it stays. */
function realValue(key: string, r: Rng): string | undefined {
  if (/^(?:seller|buyer|payee|deliverToParty|sellerTaxRepresentative)(?:Trading)?Name$|^paymentAccountName$/.test(key))
    return `${r.pick(FAMILY_NAMES)} ${r.pick(TRADES)} ${r.pick(LEGAL_FORMS)}`;
  if (/ContactPoint$|^paymentCardHolderName$/.test(key)) return r.pick(PERSONS);
  if (/AddressLine1$/.test(key)) return `${r.pick(STREETS)} ${r.int(1, 180)}`;
  if (/AddressLine[23]$/.test(key)) return `${r.pick(['Gebäude', 'Haus', 'Eingang'])} ${r.pick(['A', 'B', 'C', '2', '3'])}`;
  if (/City$/.test(key)) return r.pick(CITIES);
  if (/LegalRegistrationIdentifier$/.test(key)) return `${r.pick(['HRA', 'HRB'])} ${r.int(1000, 99999)}`;
  if (key === 'paymentServiceProviderIdentifier') return r.pick(BICS);
  if (key === 'invoiceNumber') return `${r.pick(['RE-', 'R', 'INV-', ''])}${r.int(2016, 2024)}-${r.int(100, 99999)}`;
  return undefined;
}

/** How the body of a VAT id of each country with public check digits is drawn before its check digits are tested. */
const VAT_ID_SHAPES: Record<string, (r: Rng) => string> = {
  DE: (r) => `${r.int(1, 3)}${digitsOf(r, 8)}`,
  AT: (r) => `U${digitsOf(r, 8)}`,
  FR: (r) => `${digitsOf(r, 2)}${r.int(3, 9)}${digitsOf(r, 8)}`,
  IT: (r) => digitsOf(r, 11),
  BE: (r) => `0${digitsOf(r, 9)}`,
  NL: (r) => `${digitsOf(r, 9)}B01`,
};

const digitsOf = (r: Rng, n: number) => Array.from({ length: n }, () => r.int(0, 9)).join('');

/**
 * A VAT id the testsuite made up ("ATU123456789", "DE12345677") fails its country's format or check
 * digits, which no tax office's number does; a printed invoice carries a real one. Such a dummy becomes
 * a well-formed id of the same country, drawn from its own seed so that no other value of the document moves.
 */
function realVatId(dummy: string, seed: number): string | undefined {
  const country = dummy.slice(0, 2);
  const shape = VAT_ID_SHAPES[country];
  if (!shape || vatIdChecked(dummy) === true) return undefined;
  const r = rng(hash(`vat:${seed}:${dummy}`));
  for (;;) {
    const id = `${country}${shape(r)}`;
    const [match] = scanVatIds(id);
    if (match?.value === id && match.checked) return id;
  }
}

/** The invoice with every placeholder text replaced by a value of its kind; the same seed, the same values. */
export function withoutPlaceholders(invoice: Invoice, seed: number): Invoice {
  const r = rng(hash(`placeholders:${seed}`));
  const seen = new Map<string, string>();
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') {
      if (/VatIdentifier$/.test(key)) return realVatId(value.trim(), seed) ?? value;
      // A label as the value ("Rechnungsnummer" as BT-1) is a placeholder too: no reader may return a label.
      if (!PLACEHOLDER.test(value.trim()) && !isLabel(value)) return value;
      // One placeholder, one value: "[Seller name]" printed twice names one company.
      if (!seen.has(value)) {
        const real = realValue(key, r);
        if (real === undefined) return value;
        seen.set(value, real);
      }
      return seen.get(value);
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  const out = walk(invoice, '') as Invoice;
  // A trading name is the company's own short name ("Lorenz Metallbau"), not another company's.
  const shortName = (name: string) => name.split(' ').slice(0, 2).join(' ');
  const placeholder = (v: string | undefined) => v !== undefined && PLACEHOLDER.test(v.trim());
  if (out.seller?.sellerName && placeholder(invoice.seller?.sellerTradingName))
    out.seller.sellerTradingName = shortName(out.seller.sellerName);
  if (out.buyer?.buyerName && placeholder(invoice.buyer?.buyerTradingName)) out.buyer.buyerTradingName = shortName(out.buyer.buyerName);
  return out;
}

/** The invoice of a corpus XML, through the product's parser. */
export function sourceInvoice(corpus: string, source: string): Invoice | undefined {
  const inv = truthOf(readFileSync(path.join(corpus, source), 'utf8'));
  if (inv) delete inv.additionalSupportingDocuments;
  return inv;
}

/** The seed list as benchmark items: each document is generated in memory on first use, its truth is what it printed. */
export interface SyntheticItem {
  group: Family;
  /** A name for reports (and the scan simulation's seed); no such file exists. */
  file: string;
  truth: () => Promise<Invoice | undefined>;
  bytes: () => Promise<Uint8Array>;
}

export function syntheticItems(corpus: string, seedsFile: string): SyntheticItem[] {
  return readSeedList(seedsFile).items.map((item) => {
    let made: Promise<Generated | undefined> | undefined;
    const make = () =>
      (made ??= (async () => {
        const invoice = sourceInvoice(corpus, item.source);
        return invoice ? generateInvoicePdf(withoutPlaceholders(invoice, item.seed), item.family, item.seed) : undefined;
      })());
    return {
      group: item.family,
      file: path.join(corpus, 'generated', `${item.family}-${item.seed}--${path.basename(item.source, '.xml')}.pdf`),
      truth: async () => (await make())?.printed,
      bytes: async () => (await make())!.pdf,
    };
  });
}
