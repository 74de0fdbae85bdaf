import os

DATABASE_URL = os.environ.get("PANTRY_DATABASE_URL", "sqlite:///pantry.db")
TIMEZONE = os.environ.get("PANTRY_TZ", "UTC")
REMINDER_DAYS = 3
