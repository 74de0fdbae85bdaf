"""VAT: rates per region and the tax on an invoice."""

from decimal import Decimal

from .money import Money

VAT_RATES = {
    "EU-DE": Decimal("0.19"),
    "EU-FR": Decimal("0.20"),
    "EU-NL": Decimal("0.21"),
    "UK": Decimal("0.20"),
    "NONE": Decimal("0"),
}

REVERSE_CHARGE_NOTE = "Reverse charge: VAT to be accounted for by the recipient."


def vat_rate(region):
    try:
        return VAT_RATES[region]
    except KeyError:
        raise ValueError(f"no VAT rate for region {region!r}") from None


def invoice_tax(invoice, region, client_vat_id=None):
    """The VAT due on an invoice; zero under reverse charge (a business client in another EU country)."""
    if client_vat_id and region.startswith("EU-") and not client_vat_id.startswith(region[3:]):
        return Money(0, invoice.currency), REVERSE_CHARGE_NOTE
    return invoice.subtotal().scale(vat_rate(region)), None
