"""Fault-injecting middleware: one fault per operational layer, scenarios, contract modes."""
