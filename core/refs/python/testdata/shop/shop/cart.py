"""Carts and their items. Cart.total() is mentioned here, in a docstring."""
from typing import Optional

TAX = 0.2


class Item:
    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self):
        # Same name as Cart.total: a decoy in the same module.
        return self.price


class Cart:
    def __init__(self):
        self.items = []

    def add(self, item: Item) -> "Cart":  # @ref shop/cart.py::Item shop/cart.py::Cart
        self.items.append(item)
        return self

    def total(self) -> float:
        return sum(i.price for i in self.items) * (1 + TAX)  # @ref shop/cart.py::TAX

    def checkout(self):
        t = self.total()  # @ref shop/cart.py::Cart.total
        log("checkout of Cart.total()")  # @ref shop/cart.py::log
        return t

    @classmethod
    def empty(cls) -> "Cart":  # @ref shop/cart.py::Cart
        c = cls()
        c.add(Item("none", 0))  # @ref shop/cart.py::Cart.add shop/cart.py::Item
        return c


def log(msg: Optional[str]):
    print(msg)


def make_cart() -> Cart:  # @ref shop/cart.py::Cart
    return Cart()  # @ref shop/cart.py::Cart


def build():
    return Cart()  # @ref shop/cart.py::Cart
