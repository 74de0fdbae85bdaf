from datetime import date

from ledgerly.models import Invoice, LineItem
from ledgerly.money import Money
from ledgerly.tax import invoice_tax


def invoice():
    return Invoice("INV-0001", "acme", date(2024, 1, 5), "EUR", [LineItem("consulting", 10, Money(9000, "EUR"))])


def test_german_vat():
    tax, note = invoice_tax(invoice(), "EU-DE")
    assert tax.cents == 17100 and note is None


def test_reverse_charge_for_french_business():
    tax, note = invoice_tax(invoice(), "EU-DE", client_vat_id="FR12345678901")
    assert tax.cents == 0 and "Reverse charge" in note
