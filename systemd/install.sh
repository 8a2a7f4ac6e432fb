#!/usr/bin/env bash
# Install or upgrade pocitadlo as a systemd service on Raspberry Pi OS / Debian 12 (bookworm) or later.
#
#   sudo systemd/install.sh                    # from a checkout: build its wheel, install, enable the unit
#   sudo systemd/install.sh --wheelhouse DIR   # offline, no compiler: every wheel from DIR (deploy/pocitadlo-wheelhouse)
#   sudo systemd/install.sh --wheel FILE       # install this pocitadlo wheel (dependencies: PyPI or --wheelhouse)
#   sudo systemd/install.sh --enable-spi       # also switch SPI on (raspi-config, else /boot/firmware/config.txt)
#   sudo systemd/install.sh --rollback         # back to the version before (and again: forward)
#   systemd/install.sh --dry-run [OPTIONS]     # say what would be done, change nothing
#
# Every version is a venv of its own, /opt/pocitadlo/VERSION-ID (ID: from the wheel's contents),
# built from the wheel (nothing is written into the checkout); /opt/pocitadlo/current points at
# the one the unit runs, /opt/pocitadlo/previous at the one before. An upgrade installs beside the
# old version, switches the link and restarts the unit; without READY=1 within the unit's
# watchdog time it switches back and restarts again. /etc/pocitadlo and /var/lib/pocitadlo are
# made once and never touched again. /usr/local/bin/pocitadlo runs commands as the service user.
set -euo pipefail
umask 022

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACCOUNT=pocitadlo
GROUPS_NEEDED=(gpio spi input dialout)
SERVICE=pocitadlo.service
DRY=0 ENABLE_SPI=0 ROLLBACK=0 ROOT="" WHEELHOUSE="" WHEEL="" VERSION=""

paths() {
    PREFIX=$ROOT/opt/pocitadlo
    CONF=$ROOT/etc/pocitadlo
    DATA=$ROOT/var/lib/pocitadlo
    UNIT=$ROOT/etc/systemd/system/$SERVICE
    WRAPPER=$ROOT/usr/local/bin/pocitadlo
    BOOT_CONFIG=$ROOT/boot/firmware/config.txt
    NOTICE=$PREFIX/rollback.txt          # read by `pocitadlo run`: said on the counter at start
}

usage() { sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

parse() {
    while (($#)); do
        case $1 in
            --dry-run) DRY=1 ;;
            --enable-spi) ENABLE_SPI=1 ;;
            --rollback) ROLLBACK=1 ;;
            --wheelhouse) WHEELHOUSE=$(cd "${2:?--wheelhouse needs a folder}" && pwd); shift ;;
            --wheel) WHEEL=$(realpath "${2:?--wheel needs a file}"); shift ;;
            --root) ROOT=$(realpath "${2:?--root needs a folder}"); shift ;;   # tests: a folder as /
            -h|--help) usage; exit 0 ;;
            *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        esac
        shift
    done
    if [[ -n $WHEEL && ! -f $WHEEL ]]; then echo "install.sh: --wheel $WHEEL: no such file" >&2; exit 2; fi
    paths
}

say() { echo "$*"; }

# A command that changes the system: printed, and run unless --dry-run.
run() {
    echo "+ $*"
    if [[ $DRY == 0 ]]; then "$@"; fi
}

systemd_running() { [[ -d $ROOT/run/systemd/system ]]; }

# -- packages ---------------------------------------------------------------------------------------
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
in_archive() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }

packages() {
    say "== packages"
    if [[ -n $WHEELHOUSE ]]; then
        say "   every Python package comes as a wheel from $WHEELHOUSE, pip too: no compiler, no apt packages"
        return
    fi
    local wanted=(python3-venv build-essential python3-dev)
    say "   no wheelhouse: spidev and rpi-ws281x have no wheels for the Pi on PyPI and are"
    say "   compiled here (about a minute each on a Pi 4), so the compiler and Python's headers come first"
    if in_archive liblgpio-dev; then
        wanted+=(liblgpio-dev)       # the Raspberry Pi archive's: lgpio builds against it if it has no wheel
    else
        say "   liblgpio-dev is not in this system's archive (it is a Raspberry Pi OS package): not needed,"
        say "   lgpio's wheel carries its library"
    fi
    local missing=()
    for pkg in "${wanted[@]}"; do installed "$pkg" || missing+=("$pkg"); done
    if ((${#missing[@]} == 0)); then
        say "   installed already: ${wanted[*]}"
        return
    fi
    run apt-get update -q
    run apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# -- the service's user -----------------------------------------------------------------------------
account() {
    say "== user $ACCOUNT and groups"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    local list
    list=$(IFS=,; echo "${GROUPS_NEEDED[*]}")
    if id "$ACCOUNT" >/dev/null 2>&1; then
        run usermod --append --groups "$list" "$ACCOUNT"
    else
        run useradd --system --user-group --home-dir /var/lib/pocitadlo --no-create-home \
            --shell /usr/sbin/nologin --groups "$list" "$ACCOUNT"
    fi
}

# -- the wheel --------------------------------------------------------------------------------------
WORK=""
cleanup() { if [[ -n $WORK ]]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT

# pip's options for where packages come from: PyPI, or only the wheelhouse (no sdist, no compiler).
pip_sources() {
    if [[ -n $WHEELHOUSE ]]; then
        echo "--no-index --find-links $WHEELHOUSE${1:- --only-binary :all:}"
    fi
}

# A venv at $1; with a wheelhouse its pip comes from there (python3-venv, the Debian package that
# brings ensurepip, is not needed, so an offline Pi needs no apt step at all).
make_venv() {
    if [[ -z $WHEELHOUSE ]]; then
        run python3 -m venv "$1"
        return
    fi
    local pip_wheel
    pip_wheel=$(find "$WHEELHOUSE" -maxdepth 1 -name 'pip-*.whl' | sort -V | tail -n 1)
    [[ -n $pip_wheel ]] || { echo "install.sh: no pip-*.whl in $WHEELHOUSE" >&2; exit 2; }
    run python3 -m venv --without-pip "$1"
    run "$1/bin/python" "$pip_wheel/pip" install -q --disable-pip-version-check --no-index \
        --find-links "$WHEELHOUSE" pip
}

# WHEEL: --wheel; else built from a copy of $SRC when it is a source tree (a checkout: what
# `git pull` brought); else the newest pocitadlo wheel in --wheelhouse.
find_wheel() {
    say "== the pocitadlo wheel"
    if [[ -z $WHEEL && -n $WHEELHOUSE && ! -f $SRC/pyproject.toml ]]; then
        WHEEL=$(find "$WHEELHOUSE" -maxdepth 1 -name 'pocitadlo-*.whl' | sort -V | tail -n 1)
        [[ -n $WHEEL ]] || { echo "install.sh: no pocitadlo-*.whl in $WHEELHOUSE" >&2; exit 2; }
    fi
    if [[ -n $WHEEL ]]; then
        say "   $WHEEL"
        return
    fi
    VERSION=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' \
        "$SRC/pyproject.toml")
    if [[ $DRY == 1 ]]; then
        say "   would build the wheel of $SRC (version $VERSION) in a temporary folder TMP from a copy:"
        say "   nothing is written into the checkout; setuptools for the build comes from ${WHEELHOUSE:-PyPI}"
        return
    fi
    WORK=$(mktemp -d)
    say "   building version $VERSION from a copy of $SRC in $WORK (the checkout is left as it is)"
    mkdir -p "$WORK/src"
    tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=__pycache__ --exclude=build --exclude=dist \
        --exclude='*.egg-info' -cf - . | tar -C "$WORK/src" -xf -
    make_venv "$WORK/build" >/dev/null
    # shellcheck disable=SC2046
    "$WORK/build/bin/pip" wheel -q --disable-pip-version-check --no-deps $(pip_sources " ") -w "$WORK/dist" "$WORK/src"
    WHEEL=$(find "$WORK/dist" -name 'pocitadlo-*.whl' | head -n 1)
    say "   $(basename "$WHEEL")"
}

# VERSION-ID for a wheel: its version, and 8 hex digits of its RECORD (the hashes of every file in
# it: the same sources give the same name, an edited file another, whatever the zip's timestamps).
version_name() {
    python3 - "$1" <<'PY'
import hashlib, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    record = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    version = record.split("/")[0][: -len(".dist-info")].split("-", 1)[1]
    print(f"{version}-{hashlib.sha256(wheel.read(record)).hexdigest()[:8]}")
PY
}

# -- a version beside the others --------------------------------------------------------------------
install_version() {
    local dir=$PREFIX/$1
    say "== venv $dir"
    if [[ -e $dir/.installed ]]; then
        say "   installed already (the same wheel)"
        return
    fi
    if [[ -e $dir ]]; then run rm -rf "$dir"; fi        # a broken earlier attempt
    run install -d -m 0755 "$PREFIX"
    make_venv "$dir"
    # --use-pep517: what has no wheel for the Pi (rpi-ws281x has no pyproject.toml) is built into a
    # wheel, which pip caches for the next upgrade, not installed by the legacy `setup.py install`
    # bookworm's pip 23.0 falls back to (deprecated, and gone from newer pip).
    # shellcheck disable=SC2046
    run "$dir/bin/pip" install -q --disable-pip-version-check --use-pep517 $(pip_sources) \
        "${WHEEL:-TMP/dist/pocitadlo-$VERSION-py3-none-any.whl}[pi]"
    launcher "$dir"
    # Bytecode now, as root: the unit runs as $ACCOUNT with PYTHONDONTWRITEBYTECODE=1 and cannot
    # write the venv, so a missing .pyc would be compiled at every boot (a third of the start on a
    # Pi Zero 2 W). pip compiles what it installs; this makes sure.
    run "$dir/bin/python" -m compileall -q -j 0 "$dir/lib"
    # The code of the methods @dataclass writes, kept beside it (cli/dataclass_bytecode.py: a quarter
    # of the start's instructions). -I: the installed package, not a checkout in the working folder.
    run "$dir/bin/python" -I -m cli.dataclass_bytecode
    if [[ $DRY == 0 ]]; then basename "$WHEEL" > "$dir/.installed"; fi
}

# bin/pocitadlo of the version at $1 (the unit's ExecStart, what staff run): cli/launcher.py's, in
# place of pip's console script, which imports re before anything and lets argparse build the
# parsers before `pocitadlo run` can light the counter (half a bare interpreter's start on a Pi).
# Its interpreter starts without site (-S: a fifth of a bare start), which the launcher runs once
# the counter is lit; until then the version's site-packages, named here, is all it needs.
launcher() {
    local script=$1/bin/pocitadlo packages
    say "   $script: cli/launcher.py's (the counter lit before the command line is read)"
    if [[ $DRY == 1 ]]; then return; fi
    packages=$("$1/bin/python" -c 'import sysconfig; print(repr(sysconfig.get_path("purelib")))')
    printf '#!%s -S\nimport sys\nsys.path.append(%s)\nfrom cli.launcher import main\nsys.exit(main(deferred_site=True))\n' \
        "$1/bin/python" "$packages" > "$script.new"
    chmod 0755 "$script.new"
    mv -f "$script.new" "$script"
}

# -- what the service and the staff need ------------------------------------------------------------
wrapper() {
    say "== /usr/local/bin/pocitadlo (commands run as the user $ACCOUNT)"
    run install -D -m 0755 "$SRC/systemd/pocitadlo-command" "$WRAPPER"
}

config_and_data() {
    say "== config in $CONF, data in $DATA (made once, never touched by an upgrade)"
    local examples=$SRC/config/examples name
    if [[ ! -d $CONF ]]; then run install -d -m 0750 -o root -g "$ACCOUNT" "$CONF"; fi
    for name in config.toml league.toml; do
        if [[ -e $CONF/$name ]]; then
            say "   $CONF/$name exists, kept"
        else
            run install -m 0640 -o root -g "$ACCOUNT" "$examples/$name" "$CONF/$name"
        fi
    done
    if [[ -d $DATA ]]; then
        say "   $DATA exists, kept"
    else
        run install -d -m 0750 -o "$ACCOUNT" -g "$ACCOUNT" "$DATA"
    fi
}

unit() {
    say "== systemd unit"
    run install -D -m 0644 "$SRC/systemd/$SERVICE" "$UNIT"
    if systemd_running; then
        run systemctl daemon-reload
    else
        say "   no systemd running here (a chroot or an image): the unit is enabled, not loaded"
    fi
    run systemctl ${ROOT:+--root="$ROOT"} enable "$SERVICE"
}

# -- switching versions -----------------------------------------------------------------------------
# Point the link $PREFIX/$1 at $2 (a folder name beside it) in one rename(2): never missing.
point() {
    run ln -sfn "$2" "$PREFIX/.$1.new"
    run mv -T "$PREFIX/.$1.new" "$PREFIX/$1"
}

target() { if [[ -L $PREFIX/$1 ]]; then readlink "$PREFIX/$1"; fi; }

ready_timeout() {
    if [[ -n ${POCITADLO_READY_TIMEOUT:-} ]]; then echo "$POCITADLO_READY_TIMEOUT"; return; fi
    local sec
    sec=$(sed -n 's/^WatchdogSec=\([0-9]*\)$/\1/p' "$SRC/systemd/$SERVICE" | head -n 1)
    echo "${sec:-30}"
}

# Restart the unit onto the current link; true when it said READY=1 within the watchdog time
# (systemctl restart of a Type=notify unit returns once READY=1 came, or the start failed).
restart_until_ready() {
    local seconds
    seconds=$(ready_timeout)
    if [[ $DRY == 1 ]]; then
        say "+ systemctl restart $SERVICE   (would wait up to $seconds s for READY=1)"
        return 0
    fi
    say "+ systemctl restart $SERVICE   (waiting up to $seconds s for READY=1)"
    timeout "$seconds" systemctl restart "$SERVICE" && sleep 1 && systemctl is-active --quiet "$SERVICE"
}

unit_active() { systemd_running && systemctl is-active --quiet "$SERVICE"; }

# Make $1 current; restart onto it when the service runs, and go back if it does not come up.
activate() {
    local new=$1 old
    old=$(target current)
    say "== switch /opt/pocitadlo/current: ${old:-none} -> $new"
    if [[ $old == "$new" ]]; then
        say "   $new is current already"
        return 0
    fi
    if [[ -n $old ]]; then point previous "$old"; fi
    point current "$new"
    if ! unit_active; then
        say "   $SERVICE is not running: it starts on $new (systemctl start $SERVICE, or at boot)"
        return 0
    fi
    if restart_until_ready; then
        say "   $SERVICE runs $new"
        if [[ -e $NOTICE ]]; then run rm -f "$NOTICE"; fi
        return 0
    fi
    if [[ -z $old ]]; then
        echo "install.sh: $SERVICE did not report READY on $new (journalctl -u pocitadlo)" >&2
        return 1
    fi
    echo "install.sh: $SERVICE did not report READY on $new within $(ready_timeout) s: back to $old" >&2
    logger -t pocitadlo-install "$new did not report READY within $(ready_timeout) s: rolled back to $old" || true
    point previous "$new"
    point current "$old"
    if [[ $DRY == 0 ]]; then    # said on the counter by `pocitadlo run` until the next install
        printf 'failed=%s\nback_on=%s\nseconds=%s\n' "$new" "$old" "$(ready_timeout)" > "$NOTICE"
    fi
    restart_until_ready || echo "install.sh: $old did not report READY either (journalctl -u pocitadlo)" >&2
    return 1
}

# Keep $1 (current) and $2 (previous); remove other versions and the venv of the layout before them.
prune() {
    local dir name
    for dir in "$PREFIX"/*/; do
        [[ -d $dir && ! -L ${dir%/} ]] || continue
        name=$(basename "$dir")
        [[ $name == "$1" || $name == "${2:-}" ]] && continue
        run rm -rf "${dir%/}"
    done
    if [[ -d $PREFIX/.venv ]]; then run rm -rf "$PREFIX/.venv"; fi   # install.sh before versions
}

rollback() {
    local current previous
    current=$(target current)
    previous=$(target previous)
    say "== roll back: /opt/pocitadlo/current ${current:-none} -> ${previous:-none}"
    if [[ -z $previous || ! -d $PREFIX/$previous ]]; then
        echo "install.sh: no previous version to go back to (in $PREFIX)" >&2
        return 1
    fi
    point previous "$current"
    point current "$previous"
    if [[ -e $NOTICE ]]; then run rm -f "$NOTICE"; fi
    if ! unit_active; then
        say "   $SERVICE is not running: it starts on $previous"
        return 0
    fi
    if restart_until_ready; then
        say "   $SERVICE runs $previous"
        return 0
    fi
    echo "install.sh: $SERVICE did not report READY on $previous (journalctl -u pocitadlo)" >&2
    return 1
}

# -- SPI --------------------------------------------------------------------------------------------
spi() {
    say "== SPI (the MAX7219 and WS2812 displays)"
    if [[ -e $ROOT/dev/spidev0.0 ]]; then
        say "   SPI is on (/dev/spidev0.0 exists)"
    elif [[ $ENABLE_SPI == 0 ]]; then
        say "   SPI is off. The display needs it: sudo systemd/install.sh --enable-spi (or raspi-config →"
        say "   Interface Options → SPI), then reboot. Until then the service scores and logs the missing display."
    elif command -v raspi-config >/dev/null; then
        run raspi-config nonint do_spi 0
        say "   SPI comes on at the next reboot"
    elif [[ -f $BOOT_CONFIG ]]; then
        if grep -q '^dtparam=spi=on' "$BOOT_CONFIG"; then
            say "   dtparam=spi=on is in $BOOT_CONFIG already: SPI comes on at the next reboot"
        elif [[ $DRY == 1 ]]; then
            say "   no raspi-config here: would append dtparam=spi=on to $BOOT_CONFIG (SPI on at the next reboot)"
        else
            printf '\n# pocitadlo: SPI for the counter (systemd/install.sh --enable-spi)\n[all]\ndtparam=spi=on\n' \
                >> "$BOOT_CONFIG"
            say "   no raspi-config here: dtparam=spi=on appended to $BOOT_CONFIG; SPI comes on at the next reboot"
        fi
    else
        say "   neither raspi-config nor $BOOT_CONFIG here (not a Raspberry Pi?): SPI left as it is"
    fi
}

check_system() {
    if [[ $DRY == 0 && -z $ROOT && $EUID -ne 0 ]]; then
        echo "install.sh: run as root (sudo), or with --dry-run to see the steps" >&2
        exit 2
    fi
    if [[ -r $ROOT/etc/os-release ]]; then
        local VERSION_ID="" PRETTY_NAME=""
        # shellcheck disable=SC1091
        . "$ROOT/etc/os-release"
        if [[ ${VERSION_ID:-0} =~ ^[0-9]+$ && ${VERSION_ID} -lt 12 ]]; then
            echo "install.sh: needs Debian/Raspberry Pi OS 12 (bookworm) or later, found ${PRETTY_NAME:-?}" >&2
            exit 2
        fi
    fi
}

main() {
    parse "$@"
    check_system
    if [[ $DRY == 1 ]]; then say "(dry run: nothing is changed)"; fi
    if [[ $ROLLBACK == 1 ]]; then
        rollback
        return
    fi
    packages
    account
    find_wheel
    local name
    if [[ -n $WHEEL ]]; then
        name=$(version_name "$WHEEL")
    else
        name="$VERSION-ID"           # dry run of a checkout: ID comes from the wheel built
    fi
    install_version "$name"
    wrapper
    config_and_data
    unit
    local status=0 old
    old=$(target current)
    activate "$name" || status=$?
    if [[ $status == 0 ]]; then
        if [[ -z $old || $old == "$name" ]]; then old=$(target previous); fi
        prune "$name" "$old"
    fi
    spi
    cat <<TEXT
== done$([[ $DRY == 1 ]] && echo " (dry run: nothing was changed)")
   pocitadlo.service runs /opt/pocitadlo/current as the user $ACCOUNT; staff use the command pocitadlo
   (/usr/local/bin/pocitadlo runs it as $ACCOUNT: outbox, keycard, replay, render).
   1. sudoedit /etc/pocitadlo/config.toml: [device] venue, table, game; [display]; [keypad]; [sync]
   2. sudo systemctl start pocitadlo      (or reboot)
   3. journalctl -u pocitadlo -f          a config mistake is logged and shown on the counter
   Upgrade: git pull, then this script again. Back to the version before: sudo systemd/install.sh --rollback
TEXT
    return "$status"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
