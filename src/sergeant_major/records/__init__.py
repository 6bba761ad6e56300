"""Game records: a versioned JSON file format for whole matches, its reader, writer and checker.

The parts, by concern:

- :mod:`~sergeant_major.records.format`: a match as a record dict and back, one action as JSON and back, the
  record's text (:func:`match_to_record`, :func:`dumps_record`, :func:`action_to_json`, :func:`action_from_json`).
- :mod:`~sergeant_major.records.validation`: checking a record (the shipped JSON Schema, then the rules) and
  replaying it (:func:`loads_record`, :func:`match_from_record`, :func:`check_record`, :func:`replay_record`).
- :mod:`~sergeant_major.records.files`: reading and writing record files safely (:func:`write_record`,
  :func:`read_record`, :func:`read_records`, :func:`file_mode`, :func:`renamed_onto`).
- :mod:`~sergeant_major.records.pretty`: JSON laid out for people and quoted in messages.
- :mod:`~sergeant_major.records.schema`: checking JSON against a JSON Schema with messages that quote the bad value.

The format is documented in ``docs/records.md``; ``record_schema.json`` (:func:`schema_path`) describes it. This
package needs ``jsonschema`` (the ``records`` extra, which ``cli`` and ``web`` include); the core does not.
"""

from __future__ import annotations

from sergeant_major.core.errors import RecordError
from sergeant_major.records.files import (
    MAX_RECORD_FILE,
    FileTooLarge,
    NotRegularFile,
    RecordCountError,
    file_mode,
    read_record,
    read_records,
    read_regular_file,
    renamed_onto,
    split_records,
    write_record,
)
from sergeant_major.records.format import (
    RECORD_FORMAT,
    RECORD_VERSION,
    action_from_json,
    action_to_json,
    dumps_record,
    end_text,
    match_to_record,
    schema_path,
)
from sergeant_major.records.pretty import quote_json
from sergeant_major.records.validation import (
    RecordCheckError,
    Replay,
    check_record,
    loads_keys_once,
    loads_record,
    loads_record_at,
    match_from_record,
    replay_record,
    third_person,
)

__all__ = [
    "MAX_RECORD_FILE",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "FileTooLarge",
    "NotRegularFile",
    "RecordCheckError",
    "RecordCountError",
    "RecordError",
    "Replay",
    "action_from_json",
    "action_to_json",
    "check_record",
    "dumps_record",
    "end_text",
    "file_mode",
    "loads_keys_once",
    "loads_record",
    "loads_record_at",
    "match_from_record",
    "match_to_record",
    "quote_json",
    "read_record",
    "read_records",
    "read_regular_file",
    "renamed_onto",
    "replay_record",
    "schema_path",
    "split_records",
    "third_person",
    "write_record",
]
