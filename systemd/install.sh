#!/usr/bin/env bash
# Install pocitadlo as a systemd service on Raspberry Pi OS (Bookworm or later).
#
#   sudo systemd/install.sh              # from a checkout of the repository
#   sudo systemd/install.sh --enable-spi # also switch SPI on (raspi-config), needs a reboot
#   systemd/install.sh --dry-run         # print what would be done, change nothing
#
# What it does: apt packages for the venv and lgpio; the groups gpio, spi, input, dialout and
# a system user "pocitadlo" in them; a dedicated venv in /opt/pocitadlo/.venv with pocitadlo
# and its Pi extras, compiled to bytecode; a config skeleton in /etc/pocitadlo (never
# overwriting an existing file); the unit in /etc/systemd/system, enabled. Run it again to
# upgrade: the config is kept.
set -euo pipefail

PREFIX=/opt/pocitadlo
VENV=$PREFIX/.venv
CONF=/etc/pocitadlo
DATA=/var/lib/pocitadlo
ACCOUNT=pocitadlo
GROUPS_NEEDED=(gpio spi input dialout)
UNIT=/etc/systemd/system/pocitadlo.service
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

DRY=0
ENABLE_SPI=0
for arg in "$@"; do
    case $arg in
        --dry-run) DRY=1 ;;
        --enable-spi) ENABLE_SPI=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

run() {
    echo "+ $*"
    if [[ $DRY == 0 ]]; then "$@"; fi
}

if [[ $DRY == 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo), or with --dry-run to see the steps" >&2
    exit 2
fi
if [[ -r /etc/os-release ]]; then
    . /etc/os-release
    if [[ ${VERSION_ID:-0} =~ ^[0-9]+$ && ${VERSION_ID} -lt 12 ]]; then
        echo "install.sh: needs Debian/Raspberry Pi OS 12 (Bookworm) or later, found ${PRETTY_NAME:-?}" >&2
        exit 2
    fi
fi

echo "== packages"
run apt-get update -q
run apt-get install -y -q python3-venv python3-dev swig liblgpio-dev

echo "== user and groups"
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if id "$ACCOUNT" >/dev/null 2>&1; then
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$ACCOUNT"
else
    run useradd --system --user-group --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin \
        --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$ACCOUNT"
fi

echo "== venv in $VENV"
run install -d -m 0755 "$PREFIX"
run python3 -m venv "$VENV"
run "$VENV/bin/pip" install -q --upgrade pip
run "$VENV/bin/pip" install -q "$SRC[pi]"
# Bytecode now, as root: the unit runs as $ACCOUNT with PYTHONDONTWRITEBYTECODE=1 and cannot write
# __pycache__ in the venv anyway, so a missing .pyc would be compiled again at every boot (about a
# third of the start on a Pi Zero 2 W). pip compiles what it installs unless told not to; this makes sure.
run "$VENV/bin/python" -m compileall -q -j 0 "$VENV/lib"

echo "== config skeleton in $CONF"
run install -d -m 0750 -o root -g "$ACCOUNT" "$CONF"
for name in config.toml league.toml; do
    if [[ -e $CONF/$name ]]; then
        echo "   $CONF/$name exists, kept"
    else
        run install -m 0640 -o root -g "$ACCOUNT" "$SRC/config/examples/$name" "$CONF/$name"
    fi
done
run install -d -m 0750 -o "$ACCOUNT" -g "$ACCOUNT" "$DATA"

echo "== systemd unit"
run install -m 0644 "$SRC/systemd/pocitadlo.service" "$UNIT"
run systemctl daemon-reload
run systemctl enable pocitadlo.service

echo "== SPI (the MAX7219 display)"
if [[ -e /dev/spidev0.0 ]]; then
    echo "   SPI is on (/dev/spidev0.0 exists)"
elif [[ $ENABLE_SPI == 1 ]]; then
    run raspi-config nonint do_spi 0
    echo "   SPI switched on: reboot before the first start"
else
    cat <<'TEXT'
   SPI is off. The display needs it: run `sudo raspi-config` → Interface Options → SPI → Yes
   (or `sudo raspi-config nonint do_spi 0`, or add `dtparam=spi=on` to /boot/firmware/config.txt),
   then reboot. Until then the service runs and scores, and logs the missing display.
TEXT
fi

cat <<TEXT
== done
   1. edit $CONF/config.toml: [device] venue, table, game; [display]; [keypad]; [sync]
   2. sudo systemctl start pocitadlo      (or reboot)
   3. journalctl -u pocitadlo -f          a config mistake is logged and shown on the counter
TEXT
