"""bench/spinlock_cli.py - what the spinlock grid scripts share: running the zvmperf CLI with
--json and spelling a parameter dict as NAME=VALUE arguments (shortest exact form)."""
import json
import subprocess
import sys


def run(cmd):
    """The JSON a zvmperf command prints; exits with its stderr when it fails."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return json.loads(r.stdout)


def params(p):
    """NAME=VALUE arguments of a parameter dict, each value in its shortest exact form."""
    return ["%s=%s" % (k, repr(float(v)) if isinstance(v, float) else v) for k, v in p.items()]
