#!/bin/sh
# Install the zvmperf Python package (pure Python; the shared library is installed by
# `make install`). No pip, no network: the package files are copied.
#
# usage: sh python-bindings/install.sh [--prefix PREFIX] [--destdir DESTDIR] [--libdir LIBDIR]
#                                      [--python PYTHON] [--sitedir SITEDIR]
#   --prefix   install prefix (default /usr/local)
#   --destdir  staging root prepended to every path written (default empty)
#   --libdir   where libzvmperf.so.0 is installed (default PREFIX/lib); recorded in
#              zvmperf/_libdir.py so the package finds the library without ldconfig
#   --python   interpreter whose site directory is used (default /usr/bin/python3)
#   --sitedir  site directory to install into (default: PREFIX's site directory for
#              PYTHON; on Debian PREFIX/lib/pythonX.Y/dist-packages)
# Uninstall: rm -rf SITEDIR/zvmperf
set -e
PREFIX=/usr/local
DESTDIR=
LIBDIR=
PY=/usr/bin/python3
SITEDIR=
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX=$2; shift 2 ;;
    --destdir) DESTDIR=$2; shift 2 ;;
    --libdir) LIBDIR=$2; shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --sitedir) SITEDIR=$2; shift 2 ;;
    *) echo "install.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$LIBDIR" ] || LIBDIR="$PREFIX/lib"
if [ -z "$SITEDIR" ]; then
  SITEDIR=$("$PY" - "$PREFIX" <<'PYEOF'
import os, sys, sysconfig
prefix = sys.argv[1]
ver = "python%d.%d" % sys.version_info[:2]
# Debian's interpreter looks in PREFIX/lib/pythonX.Y/dist-packages (its sysconfig default
# scheme "posix_local" would add a second /local); others use the posix_prefix scheme.
if any(p.endswith("dist-packages") for p in sys.path):
    print(os.path.join(prefix, "lib", ver, "dist-packages"))
else:
    print(sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix}))
PYEOF
)
fi
SRC=$(cd "$(dirname "$0")" && pwd)/zvmperf
DEST="$DESTDIR$SITEDIR/zvmperf"
install -d "$DEST"
for f in "$SRC"/*.py; do
  case "$(basename "$f")" in _libdir.py) continue ;; esac
  install -m 644 "$f" "$DEST/"
done
printf '# written by python-bindings/install.sh: where make install put libzvmperf\nLIBDIR = %s\n' \
  "$("$PY" -c 'import sys; print(repr(sys.argv[1]))' "$LIBDIR")" > "$DEST/_libdir.py"
"$PY" -m compileall -q -d "$SITEDIR/zvmperf" "$DEST" >/dev/null
echo "install.sh: zvmperf Python package in $DEST (library expected in $LIBDIR)"
