"""Mitigation policies and the arms built from them."""
