class Ledger:
    def post(self, amount):
        return amount

    def total(self):
        return 0


class Journal:
    def post(self, amount):
        return -amount

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
