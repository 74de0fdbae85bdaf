from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pantry import settings
from pantry.models.item import Item


def send_expiry_reminders(now=None):
    """Nightly: e-mail the items that expire within REMINDER_DAYS."""
    tz = ZoneInfo(settings.TIMEZONE)
    now = now or datetime.now(tz)
    horizon = now + timedelta(days=settings.REMINDER_DAYS)
    return [i for i in Item.expiring_within(settings.REMINDER_DAYS) if i.expires <= horizon]
