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


class Audit:
    def __init__(self, sink):
        # The instance attribute hides the method: self.record() below
        # calls sink, not Audit.record.
        self.record = sink

    def record(self, entry):
        return entry

    def run(self):
        return self.record(1)
