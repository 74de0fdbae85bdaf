"""The JSON a bank's open-banking API returns: {"transactions": {"booked": [...]}}."""

import json
from datetime import date

from ..errors import ImportFormatError
from ..models import Transaction
from ..money import Money


def import_json(path, currency):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    try:
        booked = doc["transactions"]["booked"]
    except (KeyError, TypeError):
        raise ImportFormatError(path, 1, "expected transactions.booked") from None
    out = []
    for i, entry in enumerate(booked):
        amount = entry["transactionAmount"]
        if amount["currency"] != currency:
            raise ImportFormatError(path, i + 1, f"amount in {amount['currency']}, ledger in {currency}")
        out.append(Transaction(
            booked=date.fromisoformat(entry["bookingDate"]),
            amount=Money.parse(amount["amount"], currency),
            reference=entry.get("remittanceInformationUnstructured", ""),
            counterparty=entry.get("creditorName") or entry.get("debtorName", ""),
        ))
    return out
