"""pytest setup: make the package importable from a source checkout and name the repo paths."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PKG_ROOT = os.path.dirname(HERE)                  # python-bindings/
REPO = os.path.dirname(PKG_ROOT)                  # the zvmperf tree
if PKG_ROOT not in sys.path:
    sys.path.insert(0, PKG_ROOT)

CALIB = os.path.join(REPO, "calibration")
