"""Renders one invoice, given as EN 16931 JSON on stdin, with the PyPI package PyInvoice.

    python3 render-pyinvoice.py OUT.pdf < invoice.json

A layout nobody on this project wrote or tuned for (reportlab; "Service Provider" and "Client"
side by side, each a form of labelled rows, "Name:", "Street:", "City:", "Post code:"; items as
Name, Description, Units, Unit Price, Amount; one VAT rate for the whole invoice), for
`scripts/render-foreign.sh`. PyInvoice computes its own totals from whole units, prices and the
one rate and knows no allowances, so an invoice whose printed totals would not be its XML's is
not rendered (exit 3, reason on stderr).
"""

import json
import sys
from datetime import date
from decimal import Decimal
from xml.sax.saxutils import escape

from pyinvoice.models import ClientInfo, InvoiceInfo, Item, ServiceProviderInfo
from pyinvoice.templates import SimpleInvoice
from render_common import cents, country, refuse


def party(cls, p, key, **extra):
    address = p.get(f"{key}PostalAddress", {})
    return cls(
        name=escape(p.get(f"{key}Name", "")),
        street=escape(address.get(f"{key}AddressLine1", "")),
        city=escape(address.get(f"{key}City", "")),
        country=country(address, key),
        post_code=address.get(f"{key}PostCode", ""),
        **extra,
    )


def item(line):
    quantity = Decimal(line["invoicedQuantity"])
    if quantity != quantity.to_integral_value():
        refuse("a quantity with decimals, which PyInvoice counts as whole units")
    price = line.get("priceDetails", {})
    info = line.get("itemInformation", {})
    return Item(escape(info.get("itemName", "")), escape(info.get("itemDescription", "")), int(quantity),
                Decimal(price["itemNetPrice"]) / Decimal(price.get("itemPriceBaseQuantity") or 1))


def one_rate(doc):
    rates = {Decimal(b.get("vatCategoryRate") or 0) for b in doc.get("vatBreakdown", [])}
    if len(rates) != 1:
        refuse("more than one VAT rate, which PyInvoice cannot print")
    rate = rates.pop()
    return rate.to_integral_value() if rate == rate.to_integral_value() else rate.normalize()


def main(out):
    doc = json.load(sys.stdin)
    totals = doc.get("documentTotals", {})
    if doc.get("documentLevelAllowances") or doc.get("documentLevelCharges"):
        refuse("document-level allowances or charges, which PyInvoice cannot print")
    rate = one_rate(doc)
    items = [item(line) for line in doc.get("invoiceLine", [])]
    net = sum((i.amount for i in items), Decimal(0))
    if cents(net) != cents(totals.get("invoiceTotalAmountWithoutVat", "0")) or cents(
            net + cents(net * rate / 100)) != cents(totals.get("invoiceTotalAmountWithVat", "0")):
        refuse("its own totals are not the XML's")
    due = doc.get("paymentDueDate")
    invoice = SimpleInvoice(out)
    invoice.invoice_info = InvoiceInfo(doc["invoiceNumber"], date.fromisoformat(doc["invoiceIssueDate"]),
                                       due and date.fromisoformat(due))
    invoice.service_provider_info = party(ServiceProviderInfo, doc["seller"], "seller",
                                          vat_tax_number=doc["seller"].get("sellerVatIdentifier"))
    invoice.client_info = party(ClientInfo, doc["buyer"], "buyer")
    for i in items:
        invoice.add_item(i)
    invoice.set_item_tax_rate(rate)
    invoice.finish()


if __name__ == "__main__":
    main(sys.argv[1])
