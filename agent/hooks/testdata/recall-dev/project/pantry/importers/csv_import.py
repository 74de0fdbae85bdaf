import csv


def import_items(path):
    """Import items from a CSV export of the old spreadsheet."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        return [row for row in csv.DictReader(f, delimiter=";")]
