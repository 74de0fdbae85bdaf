from flask import Blueprint, jsonify

from pantry.models.recipe import Recipe

bp = Blueprint("recipes", __name__)


@bp.get("/cookable")
def cookable():
    """Recipes whose every ingredient is in the pantry."""
    return jsonify([r.to_dict() for r in Recipe.cookable()])
