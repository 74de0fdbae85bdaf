"""Bank CSV exports: the delimiter is sniffed, the header names the columns."""

import csv
from datetime import datetime

from ..errors import ImportFormatError
from ..models import Transaction
from ..money import Money

DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%m/%d/%Y")
COLUMN_ALIASES = {
    "date": ("date", "booking date", "buchungstag", "valuta"),
    "amount": ("amount", "betrag", "value"),
    "reference": ("reference", "verwendungszweck", "description", "memo"),
    "counterparty": ("counterparty", "payee", "empfänger"),
}


def _parse_date(text, path, line):
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    raise ImportFormatError(path, line, f"unrecognized date {text!r}")


def _columns(header):
    found = {}
    lowered = [h.strip().lower() for h in header]
    for name, aliases in COLUMN_ALIASES.items():
        for alias in aliases:
            if alias in lowered:
                found[name] = lowered.index(alias)
                break
    return found


def import_csv(path, currency):
    with open(path, newline="", encoding="utf-8-sig") as f:
        sample = f.read(4096)
        f.seek(0)
        dialect = csv.Sniffer().sniff(sample, delimiters=";,\t")
        reader = csv.reader(f, dialect)
        cols = _columns(next(reader))
        for needed in ("date", "amount", "reference"):
            if needed not in cols:
                raise ImportFormatError(path, 1, f"no {needed} column in the header")
        out = []
        for line, row in enumerate(reader, start=2):
            if not any(row):
                continue
            out.append(Transaction(
                booked=_parse_date(row[cols["date"]], path, line),
                amount=Money.parse(row[cols["amount"]], currency),
                reference=row[cols["reference"]],
                counterparty=row[cols["counterparty"]] if "counterparty" in cols else "",
            ))
        return out
