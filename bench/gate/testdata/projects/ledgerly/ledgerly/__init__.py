"""ledgerly: invoices and expense ledgers for freelancers."""

__version__ = "0.4.2"
