# Debian bookworm chroots of the Pi's architectures on this machine, for deploy/pi-chroot-test.sh
# and deploy/pocitadlo-wheelhouse (sourced, not run). Needs root and the Debian packages
# debootstrap and qemu-user-static. A base chroot is made once per architecture and kept in the
# cache folder; each use works on a copy of it.

CHROOT_SUITE=bookworm
CHROOT_MIRROR=${CHROOT_MIRROR:-http://deb.debian.org/debian}
# What Raspberry Pi OS Lite has from the start and a minimal Debian has not (python3-venv and the
# compiler are not among them: systemd/install.sh installs them when it needs them).
CHROOT_INCLUDE=ca-certificates,python3,sudo,systemd,passwd,procps,git

# Debian's name of an architecture, and qemu's.
deb_arch() { case $1 in aarch64) echo arm64 ;; armv7l) echo armhf ;; *) return 1 ;; esac; }
qemu_arch() { case $1 in aarch64) echo aarch64 ;; armv7l) echo arm ;; *) return 1 ;; esac; }

need_tools() {
    local missing=() tool
    for tool in debootstrap qemu-aarch64-static; do command -v "$tool" >/dev/null || missing+=("$tool"); done
    if ((${#missing[@]})); then
        echo "needs the Debian packages debootstrap and qemu-user-static: apt-get install debootstrap qemu-user-static" >&2
        return 1
    fi
}

# binfmt_misc mounted and qemu registered for ARCH from qemu-user-static's own binfmt.d entry,
# with the flags F (the interpreter is opened now: no copy of it inside the chroot) and C (a
# setuid program runs with its owner's rights, so sudo works in the chroot as on a Pi).
binfmt_ready() {
    local qemu dir=/proc/sys/fs/binfmt_misc entry
    qemu=$(qemu_arch "$1")
    entry=/usr/lib/binfmt.d/qemu-$qemu.conf
    if [[ ! -e $dir/register ]]; then mount -t binfmt_misc binfmt_misc "$dir"; fi
    if [[ -e $dir/qemu-$qemu ]] && ! grep -q '^flags: .*C' "$dir/qemu-$qemu"; then
        echo -1 > "$dir/qemu-$qemu"            # registered without C: again, with it
    fi
    if [[ ! -e $dir/qemu-$qemu ]]; then
        [[ -r $entry ]] || { echo "no $entry: apt-get install qemu-user-static" >&2; return 1; }
        sed 's/:\([A-Z]*\)$/:\1C/; s/CC$/C/' "$entry" > "$dir/register"
    fi
    grep -q '^flags: .*C' "$dir/qemu-$qemu" && [[ $(head -n 1 "$dir/qemu-$qemu") == enabled ]]
}

# The cached base chroot of ARCH in CACHE (made by debootstrap when missing); prints its path.
base_chroot() {
    local arch=$1 cache=$2 base
    base=$cache/$CHROOT_SUITE-$(deb_arch "$arch")
    if [[ ! -e $base/.complete ]]; then
        rm -rf "$base"
        debootstrap --arch="$(deb_arch "$arch")" --variant=minbase --include="$CHROOT_INCLUDE" \
            "$CHROOT_SUITE" "$base" "$CHROOT_MIRROR" > "$cache/debootstrap-$(deb_arch "$arch").log" 2>&1 ||
            { echo "debootstrap failed: $cache/debootstrap-$(deb_arch "$arch").log" >&2; return 1; }
        # the Debian archive's security updates too, as a Pi OS image has them
        printf 'deb %s %s main\ndeb %s %s-updates main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
            "$CHROOT_MIRROR" "$CHROOT_SUITE" "$CHROOT_MIRROR" "$CHROOT_SUITE" "$CHROOT_SUITE" > "$base/etc/apt/sources.list"
        touch "$base/.complete"
    fi
    echo "$base"
}

# A working copy of BASE at ROOTFS, with /proc, /sys, /dev and name resolution.
enter_copy() {
    local base=$1 rootfs=$2
    rm -rf "$rootfs"
    cp -a --reflink=auto "$base" "$rootfs"
    mount -t proc proc "$rootfs/proc"
    mount -t sysfs sys "$rootfs/sys"
    mount --bind /dev "$rootfs/dev"
    mount -t devpts devpts "$rootfs/dev/pts" -o newinstance,ptmxmode=0666 2>/dev/null || mount --bind /dev/pts "$rootfs/dev/pts"
    cp -L /etc/resolv.conf "$rootfs/etc/resolv.conf"
    # a host whose TLS goes through a proxy of its own trusts it in its bundle: the chroot gets the same
    if [[ -r /etc/ssl/certs/ca-certificates.crt ]]; then
        cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
    fi
}

leave_copy() {
    local rootfs=$1 mnt
    for mnt in dev/pts dev sys proc; do
        if mountpoint -q "$rootfs/$mnt"; then umount -l "$rootfs/$mnt"; fi
    done
}
