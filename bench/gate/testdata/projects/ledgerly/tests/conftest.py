import pytest

from ledgerly.storage import Ledger


@pytest.fixture
def ledger(tmp_path):
    return Ledger(tmp_path / "ledger.db")
