from dataclasses import dataclass, field
from datetime import date

from .money import Money


@dataclass
class LineItem:
    description: str
    quantity: int
    unit_price: Money

    @property
    def total(self):
        return Money(self.unit_price.cents * self.quantity, self.unit_price.currency)


@dataclass
class Invoice:
    number: str
    client: str
    issued: date
    currency: str
    items: list = field(default_factory=list)
    status: str = "draft"

    def subtotal(self):
        total = Money(0, self.currency)
        for item in self.items:
            total = total + item.total
        return total


@dataclass
class Transaction:
    booked: date
    amount: Money
    reference: str
    counterparty: str = ""
    category: str = "uncategorized"

    def key(self):
        """What makes two imported rows the same transaction."""
        return (self.booked.isoformat(), self.amount.cents, self.reference.strip().lower())
