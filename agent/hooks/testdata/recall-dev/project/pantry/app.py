from flask import Flask

from pantry.api import items, recipes, shopping


def create_app(config=None):
    app = Flask(__name__)
    app.config.from_object(config or "pantry.settings")
    app.register_blueprint(items.bp, url_prefix="/items")
    app.register_blueprint(recipes.bp, url_prefix="/recipes")
    app.register_blueprint(shopping.bp, url_prefix="/shopping")
    return app
