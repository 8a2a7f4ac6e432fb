#!/usr/bin/env bash
# The counter installed as venue staff install it, on Debian 12 bookworm arm64 (the base of
# Raspberry Pi OS 64-bit) in a debootstrap chroot run by qemu-user-static (docs/install.md).
#
#   sudo deploy/pi-chroot-test.sh [--wheelhouse DIR] [--cache DIR] [--keep]
#
# A fresh clone of this checkout (its last commit) goes to /home/pi/pocitadlo in a copy of a cached
# bookworm arm64 chroot (made once by debootstrap, in --cache, default /var/cache/pocitadlo-chroot),
# with a user "pi" who may sudo, as on a Pi. Then, as on a Pi: `sudo systemd/install.sh` (with
# --wheelhouse: from that wheelhouse, offline, no compiler); the checkout left as it was; the unit
# checked by systemd-analyze verify (a chroot runs no systemd: install.sh says it skips those steps);
# staff commands from the pi login; `pocitadlo run` with no SPI device (counter dark, the device and
# the fix named, READY all the same); a headless `emulate` as the service user; an upgrade that
# deletes a file; `install.sh --rollback`. It prints a table of the steps and their times
# (emulated: not a Pi's speed) and exits non-zero on the first failure. Not run in CI (minutes).
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/chroot-lib.sh
source "$SRC/deploy/chroot-lib.sh"

CACHE=/var/cache/pocitadlo-chroot WHEELHOUSE="" KEEP=0
while (($#)); do
    case $1 in
        --wheelhouse) WHEELHOUSE=$(cd "${2:?--wheelhouse needs a folder}" && pwd); shift ;;
        --cache) CACHE=${2:?--cache needs a folder}; shift ;;
        --keep) KEEP=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "pi-chroot-test.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[[ $EUID == 0 ]] || { echo "pi-chroot-test.sh: run as root (debootstrap, chroot, binfmt_misc)" >&2; exit 2; }
need_tools
mkdir -p "$CACHE"
ROOTFS=$CACHE/test-rootfs-$$
LOGS=$CACHE/test-logs-$$
mkdir -p "$LOGS"
CHECKOUT=/home/pi/pocitadlo
WH_IN=/home/pi/wheelhouse
INSTALL_ARGS=()
[[ -z $WHEELHOUSE ]] || INSTALL_ARGS=(--wheelhouse "$WH_IN")

NAMES=() SECS=() STATES=()
finish() {
    local status=$?
    leave_copy "$ROOTFS" 2>/dev/null || true
    if [[ $KEEP == 0 ]]; then rm -rf "$ROOTFS"; fi
    echo
    echo "pocitadlo on Debian bookworm arm64 (qemu-user, chroot) $([[ -n $WHEELHOUSE ]] && echo "with the wheelhouse $WHEELHOUSE" || echo "without a wheelhouse")"
    echo "| step | seconds | result |"
    echo "|---|---:|---|"
    local i
    for i in "${!NAMES[@]}"; do echo "| ${NAMES[$i]} | ${SECS[$i]} | ${STATES[$i]} |"; done
    echo "logs: $LOGS$([[ $KEEP == 1 ]] && echo "; the chroot: $ROOTFS")"
    exit "$status"
}
trap finish EXIT

# step NAME COMMAND...: run it, time it, log it; stop at the first failure.
step() {
    local name=$1 log started
    shift
    log=$LOGS/$(printf '%02d' "${#NAMES[@]}")-${name//[^a-zA-Z0-9]/-}.log
    started=$(date +%s%N)
    echo "== $name"
    local status=0
    # in the background, so that set -e holds inside the step (it is off in a `cmd || ...` context)
    "$@" > "$log" 2>&1 &
    wait $! || status=$?
    local tenths=$((($(date +%s%N) - started) / 100000000))
    NAMES+=("$name") SECS+=("$((tenths / 10)).$((tenths % 10))")
    if [[ $status == 0 ]]; then
        STATES+=("ok")
    else
        STATES+=("FAILED (exit $status)")
        tail -n 30 "$log" | sed 's/^/   /'
        exit 1
    fi
}

in_root() { chroot "$ROOTFS" "$@"; }
as_pi() { chroot "$ROOTFS" runuser -u pi -- env HOME=/home/pi "$@"; }
fail() { echo "FAILED: $*"; return 1; }

# -- the steps ----------------------------------------------------------------------------------------
make_base() { base_chroot aarch64 "$CACHE"; }

pi_user() {
    in_root useradd --create-home --uid 1000 --shell /bin/bash pi
    echo "127.0.1.1 $(hostname)" >> "$ROOTFS/etc/hosts"          # sudo looks its host up
    echo 'pi ALL=(ALL) NOPASSWD: ALL' > "$ROOTFS/etc/sudoers.d/010_pi-nopasswd"   # as Raspberry Pi OS has it
    chmod 0440 "$ROOTFS/etc/sudoers.d/010_pi-nopasswd"
}

clone() {
    git clone --quiet --no-local "$SRC" "$ROOTFS$CHECKOUT"
    git -C "$ROOTFS$CHECKOUT" log --oneline -1
    # a module the upgrade deletes: installed first, gone after the upgrade, back after the rollback
    echo '"""Deleted by the upgrade step of deploy/pi-chroot-test.sh."""' > "$ROOTFS$CHECKOUT/cli/upgrade_probe.py"
    if [[ -n $WHEELHOUSE ]]; then cp -r "$WHEELHOUSE" "$ROOTFS$WH_IN"; fi
    in_root chown -R pi:pi /home/pi
}

snapshot() { (cd "$ROOTFS$CHECKOUT" && find . -path ./.git -prune -o -printf '%u %m %p\n' | sort); }

install_sh() { as_pi sudo "$CHECKOUT/systemd/install.sh" "${INSTALL_ARGS[@]}" "$@"; }

first_install() {
    snapshot > "$LOGS/checkout-before.txt"
    install_sh
}

site() { echo "$ROOTFS/opt/pocitadlo/$(readlink "$ROOTFS/opt/pocitadlo/$1")/lib/python3.11/site-packages"; }

after_install() {
    snapshot > "$LOGS/checkout-after.txt"
    diff "$LOGS/checkout-before.txt" "$LOGS/checkout-after.txt" || fail "install.sh changed the checkout"
    ! grep -q '^root ' "$LOGS/checkout-after.txt" || fail "root-owned files in the checkout"
    [[ -L $ROOTFS/opt/pocitadlo/current ]] || fail "no /opt/pocitadlo/current"
    readlink "$ROOTFS/opt/pocitadlo/current"
    [[ -e $(site current)/cli/upgrade_probe.py ]] || fail "the probe module is not installed"
    [[ -e $ROOTFS/etc/pocitadlo/config.toml && -d $ROOTFS/var/lib/pocitadlo ]] || fail "no config or data dir"
    grep -q "no systemd running here" "$LOGS"/*install-sh.log || fail "install.sh did not say it skipped systemd"
    if [[ -n $WHEELHOUSE ]]; then
        ! grep -q '^+ apt-get' "$LOGS"/*install-sh.log || fail "apt-get ran with a wheelhouse"
        ! in_root dpkg -s gcc >/dev/null 2>&1 || fail "a compiler was installed with a wheelhouse"
        echo "no apt step, no compiler"
    else
        grep -q "compiled here" "$LOGS"/*install-sh.log || fail "install.sh did not say why it installs a compiler"
        in_root dpkg -s build-essential python3-dev >/dev/null || fail "build-essential/python3-dev missing"
        echo "build-essential and python3-dev installed, and why said"
    fi
    [[ -n $(in_root find /opt/pocitadlo/current/ -path '*/cli/__pycache__/*.pyc' -print -quit) ]] || fail "no bytecode"
    local script=$ROOTFS/opt/pocitadlo/current/bin/pocitadlo
    grep -q '^from cli.launcher import main$' "$script" || fail "bin/pocitadlo is not cli/launcher.py's"
    local version; version=/opt/pocitadlo/$(readlink "$ROOTFS/opt/pocitadlo/current")
    [[ $(head -n 1 "$script") == "#!$version/bin/python -S" ]] || fail "bin/pocitadlo does not run its version's python"
    grep -qF "sys.path.append('$version/lib/python3.11/site-packages')" "$script" \
        || fail "bin/pocitadlo does not name its version's site-packages"
    echo "bin/pocitadlo: cli/launcher.py's, on its version's python, site run after the counter is lit"
}

verify_unit() {
    [[ -L $ROOTFS/etc/systemd/system/multi-user.target.wants/pocitadlo.service ]] || fail "the unit is not enabled"
    in_root systemd-analyze verify /etc/systemd/system/pocitadlo.service
}

staff_commands() {
    as_pi pocitadlo --help > "$LOGS/help.txt" && head -n 3 "$LOGS/help.txt"
    as_pi pocitadlo outbox list
    as_pi mkdir -p /tmp/usb && in_root chown pocitadlo /tmp/usb
    as_pi pocitadlo outbox export /tmp/usb/backlog.jsonl
    local identity
    identity=$(in_root find /var/lib/pocitadlo/outbox -name 'export-identity.json')
    [[ -n $identity ]] || fail "no export identity"
    [[ $(in_root stat -c %U "$identity") == pocitadlo ]] || fail "$identity is not the service user's"
    as_pi pocitadlo outbox export /tmp/usb/backlog2.jsonl      # a second export: it broke before
    as_pi pocitadlo keycard --png /tmp/usb/card.png
}

# `pocitadlo run` as the unit starts it (its user, NOTIFY_SOCKET), without an SPI device.
run_without_spi() {
    mkdir -p "$ROOTFS/run/pocitadlo-test" && chmod 0777 "$ROOTFS/run/pocitadlo-test"
    in_root python3 - <<'PY'
import os, signal, socket, subprocess, sys, time
path = "/run/pocitadlo-test/notify.sock"
if os.path.exists(path):
    os.unlink(path)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(path)
os.chmod(path, 0o777)
sock.settimeout(600)
start = time.monotonic()
# as the unit runs it: its user and groups, its environment; the service itself is the child (SIGTERM)
child = subprocess.Popen(["/opt/pocitadlo/current/bin/pocitadlo", "run", "--config", "/etc/pocitadlo/config.toml"],
                         user="pocitadlo", group="pocitadlo", extra_groups=["gpio", "spi", "input", "dialout"],
                         env={"PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "60000000",
                              "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"},
                         cwd="/var/lib/pocitadlo", stderr=subprocess.PIPE, text=True)
said = []
while not any(m.startswith("READY=1") for m in said):
    said.append(sock.recv(2000).decode())
    print(f"{time.monotonic() - start:6.1f} s  {said[-1]!r}")
child.send_signal(signal.SIGTERM)
log = child.communicate(timeout=120)[1]
print(log)
first = said[0]
assert first.startswith("STATUS=counter dark, starting: no SPI device /dev/spidev0.0"), first
assert "raspi-config" in first and "dtparam=spi=on" in first, first
assert "counter lit" not in log, "the log says counter lit without a display"
assert child.returncode == 0, child.returncode
PY
}

emulate_headless() {
    printf '\n1\n\n12\n0\n' > "$ROOTFS/tmp/keys.txt"
    as_pi pocitadlo emulate --keys /tmp/keys.txt --data /tmp/emu
    [[ $(in_root stat -c %U /tmp/emu) == pocitadlo ]] || fail "the emulator's data is not the service user's"
    local status=0 out
    out=$(as_pi pocitadlo emulate --keys /tmp/keys.txt --data /tmp/emu --frames /tmp/frames 2>&1) || status=$?
    echo "$out"
    [[ $status == 2 && $(echo "$out" | wc -l) == 1 ]] || fail "emulate --frames without the extra: exit $status"
}

config_sums() { in_root sh -c 'sha256sum /etc/pocitadlo/*; find /var/lib/pocitadlo -printf "%u %m %p\n" | sort'; }

upgrade() {
    config_sums > "$LOGS/config-before.txt"
    local FIRST SECOND
    FIRST=$(readlink "$ROOTFS/opt/pocitadlo/current")
    as_pi rm "$CHECKOUT/cli/upgrade_probe.py"          # as a `git pull` that deletes a module
    install_sh
    SECOND=$(readlink "$ROOTFS/opt/pocitadlo/current")
    echo "$FIRST $SECOND" > "$LOGS/versions.txt"
    echo "current: $FIRST -> $SECOND"
    [[ $SECOND != "$FIRST" && $(readlink "$ROOTFS/opt/pocitadlo/previous") == "$FIRST" ]] || fail "not switched"
    [[ ! -e $(site current)/cli/upgrade_probe.py ]] || fail "the deleted module is still installed"
    [[ -e $(site previous)/cli/upgrade_probe.py ]] || fail "the previous version was changed"
    config_sums > "$LOGS/config-after.txt"
    diff "$LOGS/config-before.txt" "$LOGS/config-after.txt" || fail "the upgrade touched the config or the data"
    as_pi pocitadlo outbox list
}

rollback() {
    local FIRST SECOND
    read -r FIRST SECOND < "$LOGS/versions.txt"
    install_sh --rollback
    [[ $(readlink "$ROOTFS/opt/pocitadlo/current") == "$FIRST" ]] || fail "current is not $FIRST"
    [[ $(readlink "$ROOTFS/opt/pocitadlo/previous") == "$SECOND" ]] || fail "previous is not $SECOND"
    [[ -e $(site current)/cli/upgrade_probe.py ]] || fail "the rolled-back version lacks its module"
    as_pi pocitadlo outbox list
}

dry_run() {
    local out
    out=$(as_pi "$CHECKOUT/systemd/install.sh" --dry-run --enable-spi "${INSTALL_ARGS[@]}")
    echo "$out"
    ! grep -qi "switched on" <<< "$out" || fail "the dry run claims SPI was switched on"
    echo "$out" | grep -q "would append dtparam=spi=on\|neither raspi-config" || fail "the dry run does not say what it would do for SPI"
}

step "binfmt_misc and qemu-aarch64" binfmt_ready aarch64
step "bookworm arm64 base (debootstrap, cached)" make_base
BASE=$CACHE/$CHROOT_SUITE-arm64
step "a working copy of the base" enter_copy "$BASE" "$ROOTFS"
step "user pi with sudo, as on a Pi" pi_user
step "fresh clone to /home/pi/pocitadlo" clone
step "install.sh" first_install
step "after install: checkout untouched, links, packages" after_install
step "systemd-analyze verify (no systemd in a chroot)" verify_unit
step "staff commands from the pi login" staff_commands
step "pocitadlo run without SPI" run_without_spi
step "emulate headless as the service user" emulate_headless
step "upgrade that deletes a module" upgrade
step "install.sh --rollback" rollback
step "install.sh --dry-run --enable-spi" dry_run
