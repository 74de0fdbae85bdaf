class LedgerError(Exception):
    """Base class of every error ledgerly reports to the user."""


class ConfigError(LedgerError):
    pass


class ImportFormatError(LedgerError):
    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line


class CurrencyMismatch(LedgerError):
    def __init__(self, a, b):
        super().__init__(f"cannot add amounts in {a} and {b}")


class DuplicateInvoiceNumber(LedgerError):
    pass
