#!/usr/bin/env python3
"""tests/check_claims.py - the gate of `make test-claims`: read the JSON of
`zvmperf claims calibration/claims/*.csv --json` and require every claim to hold, except the
ones listed in the known-failures file (calibration/claims/known_failures.txt: `ID reason`
per line), which must still fail (a listed claim that passes is an error: take it off the
list), and at least MIN_PREDICTED passing predictions (issue 14).
Usage: check_claims.py JSON MIN [KNOWN_FAILURES]."""
import json
import sys


def read_known(path):
    """{id: reason} from the known-failures file; an absent path gives {}."""
    known = {}
    if not path:
        return known
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                raise ValueError("%s:%d: a known failure needs an id and a reason" % (path, n))
            if parts[0] in known:
                raise ValueError("%s:%d: %s listed twice" % (path, n, parts[0]))
            known[parts[0]] = parts[1]
    return known


def main(path, min_predicted, known_path=None):
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
    try:
        known = read_known(known_path)
    except (OSError, ValueError) as e:
        print("test-claims: %s" % e)
        return 1
    s = d["summary"]
    ids = {c["id"] for c in d["claims"]}
    bad = [c for c in d["claims"] if not c["pass"]]
    pred_pass = sum(1 for c in d["claims"] if c["kind"] == "predicted" and c["pass"])
    print("test-claims: %d claims, %d passed, %d failed (%d known); %d fitted, %d predicted, "
          "%d identities (met by construction, not tests); %d predictions pass (at least %d "
          "required)" % (s["claims"], s["passed"], s["failed"], len(known), s["fitted"],
                         s["predicted"], s.get("identity", 0), pred_pass, min_predicted))
    rc = 0
    if len(bad) != s["failed"] or s["passed"] + s["failed"] != len(d["claims"]):
        print("test-claims: the summary does not match the claims listed")
        rc = 1
    for c in bad:
        tag = "known" if c["id"] in known else "FAIL"
        print("  %s %s (%s:%s): %s" % (tag, c["id"], c["file"], c["line"], c["reason"]))
    broken = [c["id"] for c in d["claims"] if c["kind"] == "identity" and c["id"] in known]
    if broken:
        print("test-claims: identities cannot be known failures (a model that stops meeting one "
              "by construction is a defect): %s" % ", ".join(broken))
        rc = 1
    unknown = [c for c in bad if c["id"] not in known]
    if unknown:
        print("test-claims: %d claims fail (never loosen a tolerance to pass: "
              "calibration/claims/README.md)" % len(unknown))
        rc = 1
    failing = {c["id"] for c in bad}
    for cid in sorted(known):
        if cid not in ids:
            print("test-claims: known failure %s is not a claim" % cid)
            rc = 1
        elif cid not in failing:
            print("test-claims: known failure %s now passes: take it off %s" % (cid, known_path))
            rc = 1
    if pred_pass < min_predicted:
        print("test-claims: %d passing predictions, at least %d required" % (pred_pass,
                                                                            min_predicted))
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
