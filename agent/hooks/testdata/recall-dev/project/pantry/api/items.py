from flask import Blueprint, jsonify, request

from pantry.models.item import Item, parse_quantity

bp = Blueprint("items", __name__)


@bp.post("/")
def add_item():
    data = request.get_json()
    item = Item(name=data["name"], quantity=parse_quantity(data["quantity"]), expires=data.get("expires"))
    item.save()
    return jsonify(item.to_dict()), 201


@bp.get("/expiring")
def expiring():
    return jsonify([i.to_dict() for i in Item.expiring_within(days=3)])
