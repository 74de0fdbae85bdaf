"""Money as integer cents with a currency; rounding is half-even."""

from dataclasses import dataclass
from decimal import Decimal, ROUND_HALF_EVEN

from .errors import CurrencyMismatch

MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "CHF": 2}


@dataclass(frozen=True)
class Money:
    cents: int
    currency: str

    @classmethod
    def parse(cls, text, currency):
        """Parse "1.234,56" or "1,234.56" into Money."""
        text = text.strip().replace(" ", "")
        if "," in text and (text.rfind(",") > text.rfind(".")):
            text = text.replace(".", "").replace(",", ".")
        else:
            text = text.replace(",", "")
        value = Decimal(text)
        digits = MINOR_UNITS.get(currency, 2)
        cents = int((value * (10 ** digits)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
        return cls(cents, currency)

    def __add__(self, other):
        if other.currency != self.currency:
            raise CurrencyMismatch(self.currency, other.currency)
        return Money(self.cents + other.cents, self.currency)

    def scale(self, rate):
        """Multiply by a Decimal rate, rounding half-even to a cent."""
        exact = Decimal(self.cents) * Decimal(rate)
        return Money(int(exact.quantize(Decimal(1), rounding=ROUND_HALF_EVEN)), self.currency)

    def format(self):
        digits = MINOR_UNITS.get(self.currency, 2)
        if digits == 0:
            return f"{self.cents} {self.currency}"
        whole, frac = divmod(abs(self.cents), 10 ** digits)
        sign = "-" if self.cents < 0 else ""
        return f"{sign}{whole:,}.{frac:0{digits}d} {self.currency}"
