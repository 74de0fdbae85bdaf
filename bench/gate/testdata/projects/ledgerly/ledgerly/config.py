"""Settings: defaults, the user's config.toml, pyproject.toml, then LEDGERLY_* variables."""

import os
import tomllib
from pathlib import Path

from .errors import ConfigError

DEFAULTS = {
    "default_currency": "EUR",
    "invoice_prefix": "INV",
    "database": "~/.local/share/ledgerly/ledger.db",
    "smtp_host": "",
    "vat_region": "EU-DE",
}


def _find_pyproject(start):
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.exists():
            return candidate
    return None


def load_settings(cwd=None):
    settings = dict(DEFAULTS)
    user = Path.home() / ".config" / "ledgerly" / "config.toml"
    if user.exists():
        settings.update(_read_toml(user))
    project = _find_pyproject(Path(cwd or os.getcwd()))
    if project:
        settings.update(_read_toml(project).get("tool", {}).get("ledgerly", {}))
    for key in DEFAULTS:
        env = os.environ.get("LEDGERLY_" + key.upper())
        if env is not None:
            settings[key] = env
    unknown = set(settings) - set(DEFAULTS)
    if unknown:
        raise ConfigError("unknown settings: " + ", ".join(sorted(unknown)))
    return settings


def _read_toml(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
