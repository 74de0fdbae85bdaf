"""Importers of bank statements, chosen by the file's extension."""

from pathlib import Path

from .bank_json import import_json
from .csv_import import import_csv

IMPORTERS = {".csv": import_csv, ".json": import_json}


def importer_for(path):
    suffix = Path(path).suffix.lower()
    if suffix not in IMPORTERS:
        raise ValueError(f"no importer for {suffix} files (known: {', '.join(IMPORTERS)})")
    return IMPORTERS[suffix]
