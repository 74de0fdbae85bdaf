"""The ledger: a SQLite database of invoices and transactions."""

import sqlite3
from pathlib import Path

from .errors import DuplicateInvoiceNumber
from .models import Transaction
from .money import Money

SCHEMA = """
CREATE TABLE IF NOT EXISTS invoices (number TEXT PRIMARY KEY, client TEXT, issued TEXT, currency TEXT, status TEXT);
CREATE TABLE IF NOT EXISTS transactions (booked TEXT, cents INTEGER, currency TEXT, reference TEXT, counterparty TEXT, category TEXT,
  UNIQUE (booked, cents, reference));
"""


class Ledger:
    def __init__(self, path):
        path = Path(path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.executescript(SCHEMA)

    def add_invoice(self, invoice):
        try:
            with self.db:
                self.db.execute("INSERT INTO invoices VALUES (?, ?, ?, ?, ?)",
                                (invoice.number, invoice.client, invoice.issued.isoformat(), invoice.currency, invoice.status))
        except sqlite3.IntegrityError:
            raise DuplicateInvoiceNumber(invoice.number) from None

    def next_invoice_number(self, prefix):
        row = self.db.execute("SELECT COUNT(*) FROM invoices").fetchone()
        return f"{prefix}-{row[0] + 1:04d}"

    def add_transactions(self, transactions):
        """Insert transactions, skipping those already in the ledger; returns how many were new."""
        added = 0
        with self.db:
            for t in transactions:
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO transactions VALUES (?, ?, ?, ?, ?, ?)",
                    (t.booked.isoformat(), t.amount.cents, t.amount.currency, t.reference.strip().lower(), t.counterparty, t.category))
                added += cur.rowcount
        return added

    def transactions(self, year):
        rows = self.db.execute("SELECT booked, cents, currency, reference, counterparty, category FROM transactions WHERE booked LIKE ?", (f"{year}-%",))
        from datetime import date
        return [Transaction(date.fromisoformat(b), Money(c, cur), r, cp, cat) for b, c, cur, r, cp, cat in rows]
