"""Monthly sales report."""
from shop_tools.export import write_csv


def monthly_report(orders):
    """Summarize a month of orders and export them."""
    write_csv([[o["id"], o["total"]] for o in orders], "report.csv")
