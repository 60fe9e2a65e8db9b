"""Privacy-safe archives: allowlisted scored rows that every aggregate can be rebuilt from.

Export a run with :func:`export_archive`; read one back with :func:`load_archive`, which
rejects any extra, missing or mistyped field with the line and field named.
"""

from simulator.archive.codec import Archive, encode_archive, load_archive, write_archive
from simulator.archive.export import (
    ExportSummary,
    archive_from_records,
    archive_from_store,
    export_archive,
    header_from_manifest,
    row_from_record,
    rows_from_records,
)
from simulator.archive.row import (
    ARCHIVE_FIELDS,
    ARCHIVE_VERSION,
    ROW_KEY,
    ArchiveHeader,
    ArchiveRow,
    row_key,
)

__all__ = [
    "ARCHIVE_FIELDS",
    "ARCHIVE_VERSION",
    "ROW_KEY",
    "Archive",
    "ArchiveHeader",
    "ArchiveRow",
    "ExportSummary",
    "archive_from_records",
    "archive_from_store",
    "encode_archive",
    "export_archive",
    "header_from_manifest",
    "load_archive",
    "row_from_record",
    "row_key",
    "rows_from_records",
    "write_archive",
]
