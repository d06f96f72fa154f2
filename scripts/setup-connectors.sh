#!/usr/bin/env bash
# Installs the servers that the folder-connector tests (test/connectors) start
# on loopback: Debian's OpenSSH server for the SFTP source, and moto, an
# S3-compatible server from PyPI, into .tools/moto for the S3 source. The Drive
# emulator is an npm dev dependency. Idempotent and quick when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

MOTO_VERSION=5.2.5

if [ ! -x /usr/sbin/sshd ]; then
  echo "setup-connectors: installing openssh-server"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends openssh-server >/dev/null
fi

if [ "$(cat .tools/moto.stamp 2>/dev/null)" != "$MOTO_VERSION" ]; then
  echo "setup-connectors: moto $MOTO_VERSION (S3 test server)"
  rm -rf .tools/moto
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts --target .tools/moto "moto[server]==$MOTO_VERSION"
  echo "$MOTO_VERSION" > .tools/moto.stamp
fi
