"""Bridges to other game frameworks (OpenSpiel)."""
