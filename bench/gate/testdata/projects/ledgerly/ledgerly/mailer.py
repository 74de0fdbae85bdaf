"""Sending a rendered invoice by e-mail, retrying when the server is busy."""

import smtplib
import time
from email.message import EmailMessage

RETRY_DELAYS = (1, 5, 30)


def send_invoice(html, invoice, to, settings):
    if not settings["smtp_host"]:
        raise RuntimeError("smtp_host is not set; see docs/configuration.md")
    msg = EmailMessage()
    msg["Subject"] = f"Invoice {invoice.number}"
    msg["To"] = to
    msg.set_content("Your invoice is attached as HTML.")
    msg.add_alternative(html, subtype="html")
    for attempt, delay in enumerate((0, *RETRY_DELAYS)):
        time.sleep(delay)
        try:
            with smtplib.SMTP(settings["smtp_host"], 587, timeout=20) as smtp:
                smtp.starttls()
                smtp.send_message(msg)
                return
        except smtplib.SMTPServerDisconnected:
            if attempt == len(RETRY_DELAYS):
                raise
