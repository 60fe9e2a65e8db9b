"""The matrix runner, its records and the SQLite run store."""
