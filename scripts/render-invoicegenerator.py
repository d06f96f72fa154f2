"""Renders one invoice, given as EN 16931 JSON on stdin, with the PyPI package InvoiceGenerator.

    python3 render-invoicegenerator.py OUT.pdf < invoice.json

A layout nobody on this project wrote or tuned for (reportlab, a Czech-born form: "Provider",
"Customer", "Date of exposure", "Vat in:", prices as "€3.33"), for `scripts/render-foreign.sh`.
InvoiceGenerator computes its own totals from quantity, price and rate and knows no allowances,
so an invoice whose printed totals would not be its XML's is not rendered (exit 3, reason on
stderr): the page would describe another invoice.
"""

import json
import sys
from datetime import date
from decimal import Decimal
from xml.sax.saxutils import escape

from InvoiceGenerator.api import Client, Creator, Invoice, Item, Provider
from InvoiceGenerator.pdf import SimpleInvoice
from render_common import cents, country, refuse

UNITS = {"H87": "pcs", "C62": "pcs", "XPP": "pcs", "HUR": "h", "DAY": "days", "KGM": "kg", "MTR": "m",
         "MTK": "m²", "LTR": "l", "KWH": "kWh", "MON": "months", "ANN": "years", "SET": "sets"}


def party(cls, p, key):
    address = p.get(f"{key}PostalAddress", {})
    return cls(
        summary=escape(p.get(f"{key}Name", "")),
        address=escape(address.get(f"{key}AddressLine1", "")),
        division=escape(address.get(f"{key}AddressLine2", "")),
        city=escape(address.get(f"{key}City", "")),
        zip_code=address.get(f"{key}PostCode", ""),
        country=country(address, key),
        vat_id=p.get(f"{key}VatIdentifier", ""),
        ir=p.get(f"{key}LegalRegistrationIdentifier", ""),
    )


def item(line):
    rates = line.get("lineVatInformation") or [{}]
    price = line.get("priceDetails", {})
    return Item(
        count=Decimal(line["invoicedQuantity"]),
        price=Decimal(price["itemNetPrice"]) / Decimal(price.get("itemPriceBaseQuantity") or 1),
        description=escape(line.get("itemInformation", {}).get("itemName", "")),
        unit=UNITS.get(line.get("invoicedQuantityUnitOfMeasureCode", ""), ""),
        tax=Decimal(rates[0].get("invoicedItemVatRate") or 0),
    )


def main(out):
    doc = json.load(sys.stdin)
    totals = doc.get("documentTotals", {})
    if doc.get("documentLevelAllowances") or doc.get("documentLevelCharges"):
        refuse("document-level allowances or charges, which InvoiceGenerator cannot print")
    invoice = Invoice(party(Client, doc["buyer"], "buyer"), party(Provider, doc["seller"], "seller"),
                      Creator(doc["seller"].get("sellerContact", {}).get("sellerContactPoint", "")))
    for line in doc.get("invoiceLine", []):
        invoice.add_item(item(line))
    if cents(invoice.price) != cents(totals.get("invoiceTotalAmountWithoutVat", "0")) or cents(
            invoice.price_tax) != cents(totals.get("invoiceTotalAmountWithVat", "0")):
        refuse(f"its own totals {cents(invoice.price)} / {cents(invoice.price_tax)} are not the XML's")
    if any(i.tax != i.tax.to_integral_value() for i in invoice.items):
        refuse("a rate with decimals, which InvoiceGenerator prints rounded")
    pay = doc.get("paymentInstructions", {})
    transfer = (pay.get("creditTransfer") or [{}])[0]
    invoice.title = "Credit note" if doc.get("invoiceTypeCode") == "381" else "Invoice"
    invoice.number = doc["invoiceNumber"]
    invoice.date = date.fromisoformat(doc["invoiceIssueDate"])
    invoice.payback = doc.get("paymentDueDate") and date.fromisoformat(doc["paymentDueDate"])
    invoice.currency = doc.get("invoiceCurrencyCode", "EUR")
    invoice.currency_locale = "en_US"
    invoice.use_tax = True
    invoice.iban = transfer.get("paymentAccountIdentifier")
    invoice.swift = transfer.get("paymentServiceProviderIdentifier")
    invoice.paytype = "Bank transfer" if transfer else None
    SimpleInvoice(invoice).gen(out)


if __name__ == "__main__":
    main(sys.argv[1])
