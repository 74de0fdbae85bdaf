"""Invoices rendered to HTML with a Jinja2 template."""

from jinja2 import Environment, PackageLoader, select_autoescape

from .tax import invoice_tax

env = Environment(loader=PackageLoader("ledgerly", "templates"), autoescape=select_autoescape())


def render_invoice(invoice, settings, client_vat_id=None):
    tax, note = invoice_tax(invoice, settings["vat_region"], client_vat_id)
    template = env.get_template("invoice.html")
    return template.render(invoice=invoice, subtotal=invoice.subtotal(), tax=tax,
                           total=invoice.subtotal() + tax, note=note)
