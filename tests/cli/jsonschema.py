#!/usr/bin/env python3
"""Check JSON documents against a JSON Schema, for the tests of sbfs --json.

Usage: jsonschema.py SCHEMA FILE...   every FILE holds one document, or one
document a line (JSON Lines); prints one line per document that fails and
exits 1 if any did.

Only the part of JSON Schema (2020-12) that docs/sbfs-output.schema.json
uses is implemented, and a schema keyword outside it is an error rather
than ignored, so the check cannot pass by not understanding the schema:
type, const, enum, properties, required, additionalProperties (false),
items, prefixItems, minItems, maxItems, minimum, maximum, minLength,
pattern, $ref (within the document), oneOf, anyOf.  A document with a
repeated key, NaN or Infinity is rejected too.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
KEYWORDS = {"type", "const", "enum", "properties", "required", "additionalProperties", "items",
            "prefixItems", "minItems", "maxItems", "minimum", "maximum", "minLength", "pattern",
            "$ref", "oneOf", "anyOf"}


class SchemaError(Exception):
    pass


def is_type(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    raise SchemaError("unknown type %r" % t)


def same(a, b):
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def check(root, s, v, path):
    """The list of errors of value v against schema s (empty: valid)."""
    unknown = set(s) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise SchemaError("schema keyword(s) not supported: %s" % ", ".join(sorted(unknown)))
    errs = []
    if "$ref" in s:
        ref = s["$ref"]
        if not ref.startswith("#/"):
            raise SchemaError("only local $ref: %s" % ref)
        t = root
        for part in ref[2:].split("/"):
            t = t[part]
        errs += check(root, t, v, path)
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            return errs + ["%s: %r is not of type %s" % (path, v, "/".join(ts))]
    if "const" in s and not same(v, s["const"]):
        errs.append("%s: %r is not %r" % (path, v, s["const"]))
    if "enum" in s and not any(same(v, e) for e in s["enum"]):
        errs.append("%s: %r is not one of %r" % (path, v, s["enum"]))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: key %r missing" % (path, k))
        for k, x in v.items():
            if k in props:
                errs += check(root, props[k], x, "%s.%s" % (path, k))
            elif s.get("additionalProperties", True) is False:
                errs.append("%s: key %r not allowed" % (path, k))
    if isinstance(v, list):
        pre = s.get("prefixItems", [])
        for i, x in enumerate(v):
            if i < len(pre):
                errs += check(root, pre[i], x, "%s[%d]" % (path, i))
            elif "items" in s:
                errs += check(root, s["items"], x, "%s[%d]" % (path, i))
        if len(v) < s.get("minItems", 0):
            errs.append("%s: fewer than %d items" % (path, s["minItems"]))
        if "maxItems" in s and len(v) > s["maxItems"]:
            errs.append("%s: more than %d items" % (path, s["maxItems"]))
    if is_type(v, "number"):
        if "minimum" in s and v < s["minimum"]:
            errs.append("%s: %r below %r" % (path, v, s["minimum"]))
        if "maximum" in s and v > s["maximum"]:
            errs.append("%s: %r above %r" % (path, v, s["maximum"]))
    if isinstance(v, str):
        if len(v) < s.get("minLength", 0):
            errs.append("%s: shorter than %d" % (path, s["minLength"]))
        if "pattern" in s and not re.search(s["pattern"], v):
            errs.append("%s: %r does not match /%s/" % (path, v, s["pattern"]))
    if "oneOf" in s:
        ok = [i for i, b in enumerate(s["oneOf"]) if not check(root, b, v, path)]
        if len(ok) != 1:
            errs.append("%s: matches %d of the oneOf schemas, not exactly 1" % (path, len(ok)))
    if "anyOf" in s and all(check(root, b, v, path) for b in s["anyOf"]):
        errs.append("%s: matches none of the anyOf schemas" % path)
    return errs


def no_dupes(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("repeated key %r" % k)
        d[k] = v
    return d


def bad_constant(c):
    raise ValueError("%s is not JSON" % c)


def load(text):
    return json.loads(text, object_pairs_hook=no_dupes, parse_constant=bad_constant)


def documents(text):
    """One document, or one a line."""
    try:
        return [load(text)]
    except ValueError:
        return [load(line) for line in text.splitlines() if line.strip()]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: jsonschema.py SCHEMA FILE...\n")
        return 2
    with open(argv[1]) as f:
        root = json.load(f)
    failed = 0
    for name in argv[2:]:
        with open(name) as f:
            text = f.read()
        try:
            docs = documents(text)
        except ValueError as e:
            print("%s: not JSON: %s" % (name, e))
            failed += 1
            continue
        if not docs:
            print("%s: no document" % name)
            failed += 1
        for i, d in enumerate(docs):
            errs = check(root, root, d, "$")
            if errs:
                # oneOf hides why: say what the branch of its command found
                cmd = d.get("command") if isinstance(d, dict) else None
                for b in root.get("oneOf", []):
                    sub = check(root, b, d, "$")
                    if cmd is not None and not any("command" in e for e in sub):
                        errs += sub
                print("%s: document %d: %s" % (name, i + 1, "; ".join(errs)))
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
