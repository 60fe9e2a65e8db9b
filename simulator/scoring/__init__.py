"""Strict scoring: pure functions from (answer, trace, labels) to scores."""
