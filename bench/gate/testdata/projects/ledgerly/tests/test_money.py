from decimal import Decimal

import pytest

from ledgerly.errors import CurrencyMismatch
from ledgerly.money import Money


def test_parse_german_and_english_separators():
    assert Money.parse("1.234,56", "EUR").cents == 123456
    assert Money.parse("1,234.56", "USD").cents == 123456


def test_scale_rounds_half_even():
    assert Money(125, "EUR").scale(Decimal("0.1")).cents == 12
    assert Money(135, "EUR").scale(Decimal("0.1")).cents == 14


def test_adding_currencies_fails():
    with pytest.raises(CurrencyMismatch):
        Money(1, "EUR") + Money(1, "USD")
