"""Export orders to CSV for the accounting team."""
import csv


def write_csv(rows, path):
    """Write order rows to a CSV file."""
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows(rows)
