"""Rules that put imported transactions into categories by their reference or counterparty."""

import re

DEFAULT_RULES = [
    (re.compile(r"\b(aws|hetzner|digitalocean)\b", re.I), "hosting"),
    (re.compile(r"\b(db bahn|lufthansa|uber)\b", re.I), "travel"),
    (re.compile(r"\binvoice\s+inv-\d+", re.I), "income"),
]


def categorize(transactions, rules=DEFAULT_RULES):
    for t in transactions:
        text = f"{t.reference} {t.counterparty}"
        for pattern, category in rules:
            if pattern.search(text):
                t.category = category
                break
    return transactions
