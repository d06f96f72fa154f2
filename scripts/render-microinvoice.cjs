// Renders one invoice, given as EN 16931 JSON on stdin, with the npm package microinvoice (pdfkit).
//
//   node render-microinvoice.cjs OUT.pdf < invoice.json
//
// A layout nobody on this project wrote or tuned for, for `scripts/render-foreign.sh`: a grey
// header band, "Bill From" / "Bill To" side by side, a three-column table (Description,
// Quantity, Subtotal: no unit price), totals as label and value. The labels are the package's
// own example's, except that nothing is called paid: the invoices are not.
'use strict';
const MicroInvoice = require('microinvoice');

const COUNTRIES = {
  DE: 'Germany',
  FR: 'France',
  AT: 'Austria',
  NL: 'Netherlands',
  BE: 'Belgium',
  IT: 'Italy',
  ES: 'Spain',
  CH: 'Switzerland',
  LU: 'Luxembourg',
  GB: 'United Kingdom',
  US: 'USA',
};
const date = (iso) => iso && iso.split('-').reverse().join('/');
const quantity = (q) => q.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

function address(party, key) {
  const a = party[`${key}PostalAddress`] || {};
  const code = a[`${key}CountryCode`];
  return [
    party[`${key}Name`],
    a[`${key}AddressLine1`],
    a[`${key}AddressLine2`],
    [a[`${key}PostCode`], a[`${key}City`]].filter(Boolean).join(' '),
    COUNTRIES[code] || code,
  ].filter(Boolean);
}

function block(label, party, key) {
  const vat = party[`${key}VatIdentifier`];
  return [{ label, value: address(party, key) }, ...(vat ? [{ label: 'Tax Identifier', value: vat }] : [])];
}

function render(doc, out) {
  const totals = doc.documentTotals || {};
  const transfer = ((doc.paymentInstructions || {}).creditTransfer || [])[0] || {};
  const invoice = new MicroInvoice({
    data: {
      invoice: {
        name: doc.invoiceTypeCode === '381' ? 'Credit Note' : 'Invoice',
        header: [
          { label: 'Invoice Number', value: doc.invoiceNumber },
          { label: 'Date', value: date(doc.invoiceIssueDate) },
          ...(doc.paymentDueDate ? [{ label: 'Due Date', value: date(doc.paymentDueDate) }] : []),
        ],
        currency: doc.invoiceCurrencyCode || 'EUR',
        customer: block('Bill To', doc.buyer, 'buyer'),
        seller: block('Bill From', doc.seller, 'seller'),
        legal: [
          transfer.paymentAccountIdentifier && { value: `IBAN: ${transfer.paymentAccountIdentifier}` },
          transfer.paymentServiceProviderIdentifier && { value: `BIC: ${transfer.paymentServiceProviderIdentifier}` },
        ].filter(Boolean),
        details: {
          header: [{ value: 'Description' }, { value: 'Quantity' }, { value: 'Subtotal' }],
          parts: (doc.invoiceLine || []).map((l) => [
            { value: l.itemInformation.itemName },
            { value: quantity(l.invoicedQuantity) },
            { value: l.invoiceLineNetAmount, price: true },
          ]),
          total: [
            { label: 'Total without VAT', value: totals.invoiceTotalAmountWithoutVat, price: true },
            ...(doc.vatBreakdown || []).flatMap((r) => [
              { label: 'VAT Rate', value: `${r.vatCategoryRate.replace(/\.0+$/, '')}%` },
              { label: 'VAT', value: r.vatCategoryTaxAmount, price: true },
            ]),
            { label: 'Total with VAT', value: totals.invoiceTotalAmountWithVat, price: true },
          ],
        },
      },
    },
  });
  return invoice.generate(out);
}

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const doc = JSON.parse(input);
  // Allowances and charges have no place on this form: the page would describe another invoice.
  if ((doc.documentLevelAllowances || []).length || (doc.documentLevelCharges || []).length) {
    console.error('document-level allowances or charges, which microinvoice cannot print');
    process.exit(3);
  }
  render(doc, process.argv[2]).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
});
