"""The ledgerly command."""

import argparse
import sys

from . import reports
from .categorize import categorize
from .config import load_settings
from .errors import LedgerError
from .importers import importer_for
from .storage import Ledger


def cmd_import(args, settings, ledger):
    importer = importer_for(args.file)
    transactions = categorize(importer(args.file, settings["default_currency"]))
    added = ledger.add_transactions(transactions)
    print(f"{added} new transactions ({len(transactions) - added} already in the ledger)")


def cmd_report(args, settings, ledger):
    months = reports.monthly(ledger.transactions(args.year), settings["default_currency"])
    print(reports.render_table(months))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="ledgerly")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("import")
    p.add_argument("file")
    p.set_defaults(run=cmd_import)
    p = sub.add_parser("report")
    p.add_argument("kind", choices=["monthly"])
    p.add_argument("--year", type=int, required=True)
    p.set_defaults(run=cmd_report)
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
        args.run(args, settings, Ledger(settings["database"]))
    except LedgerError as exc:
        print(f"ledgerly: {exc}", file=sys.stderr)
        return 1
    return 0
