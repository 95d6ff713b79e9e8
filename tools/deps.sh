#!/bin/sh
# Install the Debian packages zvmperf needs, when any is missing (run as root, or with sudo).
set -e
PKGS="build-essential pkg-config libgsl-dev libhdf5-dev hdf5-tools libcunit1-dev libinih-dev \
python3-numpy python3-h5py python3-matplotlib python3-pytest python3-setuptools jupyter-nbconvert python3-ipykernel"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then echo "deps: all present"; exit 0; fi
echo "deps: installing$missing"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
