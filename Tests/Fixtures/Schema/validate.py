"""Validates policy files against policy.schema.json with an independent validator.

Usage: validate.py SCHEMA FILE...   Prints "schema ok" (the schema passes the draft 2020-12
metaschema), then "valid PATH" or "invalid PATH: MESSAGE" per file. YAML is read as YAML 1.2,
as policyc reads it (ruamel.yaml), so `yes` is a string and `0o17` a number.
"""
import json
import sys

from jsonschema import Draft202012Validator
from ruamel.yaml import YAML


def plain(value):
    """The JSON data model of a loaded YAML value (keys as strings)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    print("schema ok")
    validator = Draft202012Validator(schema)
    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            data = plain(yaml.load(f))
        errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path)
            print(f"invalid {path}: {where}: {errors[0].message[:200]}")
        else:
            print(f"valid {path}")


if __name__ == "__main__":
    main(sys.argv)
