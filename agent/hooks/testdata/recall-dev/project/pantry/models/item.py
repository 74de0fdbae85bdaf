from decimal import Decimal

UNITS = {"g": 1, "kg": 1000, "ml": 1, "l": 1000}


def parse_quantity(text):
    """'1.5 kg' -> (Decimal('1500'), 'g')."""
    amount, unit = text.split()
    base = "g" if unit in ("g", "kg") else "ml"
    return Decimal(amount) * UNITS[unit], base


class Item:
    def __init__(self, name, quantity, expires=None):
        self.name, self.quantity, self.expires = name, quantity, expires

    def save(self):
        pass

    def to_dict(self):
        return {"name": self.name, "expires": self.expires}

    @classmethod
    def expiring_within(cls, days):
        return []

    @classmethod
    def running_low(cls):
        return []
