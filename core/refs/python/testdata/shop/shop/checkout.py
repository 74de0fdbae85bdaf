from .cart import Cart as C, build
from . import ledger


def pay(cart: C):  # @ref shop/cart.py::Cart
    ledger.Ledger().post(cart.total())  # @ref shop/ledger.py::Ledger shop/ledger.py::Ledger.post shop/cart.py::Cart.total
    with ledger.Journal() as j:  # @ref shop/ledger.py::Journal
        j.post(2)  # @ref shop/ledger.py::Journal.post
    build().total()  # @ref shop/cart.py::build shop/cart.py::Cart.total


def pay_all(carts):
    items = [C()]  # @ref shop/cart.py::Cart
    for c in items:
        c.total()  # @ref shop/cart.py::Cart.total
    for c in carts:
        c.total()
