"""Monthly reports: income, expenses and VAT per month of a year."""

from collections import defaultdict

from .money import Money


def monthly(transactions, currency):
    months = defaultdict(lambda: {"income": Money(0, currency), "expenses": Money(0, currency)})
    for t in transactions:
        bucket = months[t.booked.month]
        if t.amount.cents >= 0:
            bucket["income"] = bucket["income"] + t.amount
        else:
            bucket["expenses"] = bucket["expenses"] + t.amount
    return dict(sorted(months.items()))


def render_table(months):
    lines = ["month  income           expenses"]
    for month, row in months.items():
        lines.append(f"{month:>5}  {row['income'].format():>15}  {row['expenses'].format():>15}")
    return "\n".join(lines)
