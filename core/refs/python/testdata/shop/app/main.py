import shop.cart
import shop.ledger as led
from typing import Optional

from shop import Book, Cart
from shop.base import Order
from shop.cart import Item as Product, make_cart


def run(cart: Cart, journal):  # @ref shop/cart.py::Cart
    cart.total()  # @ref shop/cart.py::Cart.total
    journal.post(3)
    book = Book()  # @ref shop/ledger.py::Ledger
    book.post(1)  # @ref shop/ledger.py::Ledger.post
    c2 = make_cart()  # @ref shop/cart.py::make_cart
    c2.add(Product("x", 1)).checkout()  # @ref shop/cart.py::Cart.add shop/cart.py::Item shop/cart.py::Cart.checkout
    led.Journal().post(2)  # @ref shop/ledger.py::Journal shop/ledger.py::Journal.post
    shop.cart.make_cart()  # @ref shop/cart.py::make_cart
    c3: Cart = journal.cart  # @ref shop/cart.py::Cart
    c3.total()  # @ref shop/cart.py::Cart.total
    Cart.empty().checkout()  # @ref shop/cart.py::Cart shop/cart.py::Cart.empty shop/cart.py::Cart.checkout


def shadow():
    make_cart = lambda: None
    make_cart()
    Product = dict
    Product(x=1).total()


def total():
    return 0


def report(order: Optional[Order], ledger: "Book | None"):  # @ref shop/base.py::Order shop/ledger.py::Ledger
    order.submit()  # @ref shop/base.py::Order.submit
    order.post(1)  # @ref shop/base.py::Order.post
    ledger.total()  # @ref shop/ledger.py::Ledger.total
    msg = "make_cart() and Cart.total"
    # make_cart() in a comment: no reference
    return total(), msg  # @ref app/main.py::total


def forward(c: "Cart"):  # @ref shop/cart.py::Cart
    return c.checkout()  # @ref shop/cart.py::Cart.checkout


class Shop:
    def __init__(self, ledger: Optional[Book] = None):  # @ref shop/ledger.py::Ledger
        self.ledger = ledger
        self.order = Order()  # @ref shop/base.py::Order

    def close(self):
        self.order.submit()  # @ref shop/base.py::Order.submit
        self.ledger.post(0)  # @ref shop/ledger.py::Ledger.post
        return self.total()  # @ref app/main.py::Shop.total

    def total(self):
        return total()  # @ref app/main.py::total
