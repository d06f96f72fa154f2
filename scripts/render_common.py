"""What the Python renderers of `scripts/render-foreign.sh` share: country names, the refusal to
render an invoice the package would print as another, and rounding to cents."""

import sys
from decimal import ROUND_HALF_UP, Decimal

COUNTRIES = {"DE": "Germany", "FR": "France", "AT": "Austria", "NL": "Netherlands", "BE": "Belgium",
             "IT": "Italy", "ES": "Spain", "CH": "Switzerland", "LU": "Luxembourg", "GB": "United Kingdom",
             "DK": "Denmark", "PL": "Poland", "SE": "Sweden", "US": "United States"}
CENT = Decimal("0.01")


def refuse(reason):
    """Exit 3 with the reason: the page would describe another invoice than its XML."""
    print(reason, file=sys.stderr)
    sys.exit(3)


def cents(value):
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def country(address, key):
    code = address.get(f"{key}CountryCode", "")
    return COUNTRIES.get(code, code)
