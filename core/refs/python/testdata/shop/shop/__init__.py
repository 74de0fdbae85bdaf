"""The shop package re-exports its main classes."""
from .cart import Cart
from .ledger import Ledger as Book
