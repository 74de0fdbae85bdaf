from .ledger import Ledger


class Base:
    def __init__(self):
        self.ledger = Ledger()  # @ref shop/ledger.py::Ledger

    def save(self):
        self.ledger.post(1)  # @ref shop/ledger.py::Ledger.post
        return self.validate()  # @ref shop/base.py::Base.validate

    def validate(self):
        return True


class Order(Base):  # @ref shop/base.py::Base
    def validate(self):
        ok = super().validate()  # @ref shop/base.py::Base.validate
        return ok

    def submit(self):
        return self.save()  # @ref shop/base.py::Base.save

    @staticmethod
    def post(amount):
        return amount
