"""Data tables shipped with the built-in strategies, and the scripts that make them."""

from pathlib import Path

#: Folder holding the shipped tables.
TABLES_DIR = Path(__file__).parent
