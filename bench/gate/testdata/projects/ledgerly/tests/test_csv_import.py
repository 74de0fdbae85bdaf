from ledgerly.importers.csv_import import import_csv


def test_semicolon_export(tmp_path):
    path = tmp_path / "bank.csv"
    path.write_text("Buchungstag;Betrag;Verwendungszweck\n02.03.2024;-12,50;Hetzner Online\n", encoding="utf-8")
    [t] = import_csv(path, "EUR")
    assert t.amount.cents == -1250
    assert t.booked.isoformat() == "2024-03-02"


def test_reimport_is_skipped(tmp_path, ledger):
    path = tmp_path / "bank.csv"
    path.write_text("date,amount,reference\n2024-03-02,10.00,ref 1\n", encoding="utf-8")
    assert ledger.add_transactions(import_csv(path, "EUR")) == 1
    assert ledger.add_transactions(import_csv(path, "EUR")) == 0
