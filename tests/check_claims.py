#!/usr/bin/env python3
"""tests/check_claims.py - the gate of `make test-claims`: read the JSON of
`zvmperf claims calibration/claims/*.csv --json` and require every claim to hold and at
least MIN_PREDICTED of them to be predictions (issue 14). Usage: check_claims.py JSON MIN."""
import json
import sys


def main(path, min_predicted):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        d = json.loads(text)
    except ValueError:
        print("test-claims: zvmperf claims wrote no JSON: %r" % text[:200])
        return 1
    if "summary" not in d:
        print("test-claims: zvmperf claims failed: %s" % d.get("message", d))
        return 1
    s = d["summary"]
    bad = [c for c in d["claims"] if not c["pass"]]
    print("test-claims: %d claims, %d passed, %d failed; %d fitted, %d predicted "
          "(at least %d required)" % (s["claims"], s["passed"], s["failed"], s["fitted"],
                                      s["predicted"], min_predicted))
    for c in bad:
        print("  FAIL %s (%s:%s): %s" % (c["id"], c["file"], c["line"], c["reason"]))
    if len(bad) != s["failed"] or s["passed"] + s["failed"] != len(d["claims"]):
        print("test-claims: the summary does not match the claims listed")
        return 1
    if bad:
        print("test-claims: %d claims fail (never loosen a tolerance to pass: "
              "calibration/claims/README.md)" % len(bad))
        return 1
    if s["predicted"] < min_predicted:
        print("test-claims: %d predicted claims, at least %d required: the claims files of "
              "the reports' models are not all in calibration/claims/" % (s["predicted"],
                                                                            min_predicted))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
