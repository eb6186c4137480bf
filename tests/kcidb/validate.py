#!/usr/bin/env python3
"""Validate a JSON file against a JSON schema (Draft-07, formats checked),
as kcidb-io does. usage: validate.py SCHEMA FILE
exit: 0 valid, 1 invalid (each error on stdout), 2 no jsonschema module or
unreadable input."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("no python3 jsonschema module (Debian: python3-jsonschema)", file=sys.stderr)
    sys.exit(2)

if len(sys.argv) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
try:
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    data = json.load(open(sys.argv[2], encoding="utf-8"))
except (OSError, ValueError) as e:
    print(f"cannot read: {e}", file=sys.stderr)
    sys.exit(2)
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errors = list(validator.iter_errors(data))
for e in errors:
    print(f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message[:200]}")
sys.exit(1 if errors else 0)
