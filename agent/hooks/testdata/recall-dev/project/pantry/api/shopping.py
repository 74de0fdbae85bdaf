from flask import Blueprint, jsonify

from pantry.models.item import Item

bp = Blueprint("shopping", __name__)


@bp.get("/list")
def shopping_list():
    return jsonify([i.name for i in Item.running_low()])
