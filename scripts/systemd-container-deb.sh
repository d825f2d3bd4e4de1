# The Debian package under a real systemd: sourced by scripts/systemd-container.sh when DEB= is given, and uses its
# helpers (result, inct, prop, now_ms, secs) and settings (RUNROOT, LOGDIR, DEB, DEB_NEXT).
# deb_prepare_root runs before the boot, on the per-run copy of the root; deb_checks runs in the booted container:
# apt install (enabled, started, ctl answers root and a member of audio, not others), an edited conffile across an
# upgrade (try-restarted), a stopped service staying stopped across a reinstall, apt remove (stopped, conffile
# kept), apt purge (nothing of the package left), and policy-rc.d forbidding the start.

DEB_DIR_IN=/srv/debs
SOCK=/run/lightshow/control.sock
# What the container changes by itself or the test puts there: not files of the package.
LEFTOVER_PRUNE='^/(proc|sys|dev|run|tmp|var/tmp|var/log|var/cache/apt|var/cache/debconf|var/cache/ldconfig|var/lib/apt|var/lib/dpkg|var/lib/systemd/(timers|timesync|coredump|random-seed|catalog)|srv/debs)(/|$)'

deb_prepare_root() {
    DEB_IN="$DEB_DIR_IN/$(basename "$DEB")"
    DEB_NEXT_IN="$DEB_DIR_IN/$(basename "$DEB_NEXT")"
    install -d -m 0755 "$RUNROOT$DEB_DIR_IN"
    cp "$DEB" "$DEB_NEXT" "$RUNROOT$DEB_DIR_IN/"
    # An admin's drop-in, made before the install: the demo input, as this kernel has no sound card. The packaged
    # config stays as shipped, so the upgrade below meets it as dpkg installed it, then edited.
    install -d "$RUNROOT/etc/systemd/system/lightshow.service.d"
    printf '[Service]\nExecStart=\nExecStart=/usr/bin/lightshow daemon --config /etc/lightshow/lightshow.toml --input demo\n' \
        >"$RUNROOT/etc/systemd/system/lightshow.service.d/demo-input.conf"
    # The container has no network: what the package depends on and recommends is fetched into apt's cache now,
    # from the root's own package lists (refreshed only when the mirror has moved on), and apt installs from there.
    cp /etc/resolv.conf "$RUNROOT/etc/resolv.conf"
    local t0; t0=$(now_ms)
    if ! chroot "$RUNROOT" apt-get install -y -q --download-only "$DEB_IN" >"$LOGDIR/apt-download.log" 2>&1; then
        chroot "$RUNROOT" apt-get update -q >>"$LOGDIR/apt-download.log" 2>&1
        chroot "$RUNROOT" apt-get install -y -q --download-only "$DEB_IN" >>"$LOGDIR/apt-download.log" 2>&1 \
            || { result deb-fetch FAIL "apt-get --download-only failed, see $LOGDIR/apt-download.log"; return 1; }
    fi
    local fetched; fetched="$(find "$RUNROOT/var/cache/apt/archives" -name '*.deb' -printf '%f\n' | cut -d_ -f1 | sort | tr '\n' ' ')"
    result deb-fetch INFO "apt fetched $(wc -w <<<"$fetched") packages for it in $(secs $(( $(now_ms) - t0 ))): $fetched"
}

apt_in() { # apt_in ARGS...: apt in the container, from /srv/debs, as an admin would type it
    inct sh -c "cd $DEB_DIR_IN && DEBIAN_FRONTEND=noninteractive apt $* 2>&1"
}
snapshot() { # every path of the container's root, but those LEFTOVER_PRUNE names
    (cd "$RUNROOT" && find . -xdev | sed 's|^\.||' | grep -vE "$LEFTOVER_PRUNE" | sort)
}
state() { echo "$(prop lightshow ActiveState)/$(prop lightshow SubState)"; }
pkg_status() { inct dpkg-query -W -f '${db:Status-Abbrev}${Version}' lightshow 2>/dev/null | tr -s ' '; }

deb_checks() {
    local v1 v2 out rc t0 pid1 pid2 conf_sum
    v1="$(dpkg-deb -f "$DEB" Version)"; v2="$(dpkg-deb -f "$DEB_NEXT" Version)"
    snapshot >"$LOGDIR/files-before.txt"
    inct dpkg-query -W -f '${Package}\n' | sort >"$LOGDIR/packages-before.txt"

    # ------------------------------------------------------------ install
    t0=$(now_ms); out="$(apt_in install -y "./$(basename "$DEB")")"; rc=$?
    echo "$out" >"$LOGDIR/apt-install.log"
    local t_inst=$(( $(now_ms) - t0 ))
    pid1="$(prop lightshow MainPID)"
    if [ $rc -eq 0 ] && [ "$(pkg_status)" = "ii $v1" ] && [ "$(inct systemctl is-enabled lightshow.service)" = enabled ] \
            && [ "$(state)" = active/running ]; then
        result deb-install PASS "apt install ./$(basename "$DEB"): $(pkg_status), enabled, active (running) in $(secs $t_inst), MainPID $pid1, STATUS=\"$(prop lightshow StatusText | cut -c1-70)\""
    else
        result deb-install FAIL "rc=$rc status='$(pkg_status)' enabled=$(inct systemctl is-enabled lightshow.service) state=$(state): $(tail -3 <<<"$out" | tr '\n' '|')"
    fi
    inct dpkg-query -W -f '${Package} ${Version}\n' libpulse0 >/dev/null 2>&1 \
        && result deb-recommends INFO "apt installed the Recommends too: $(inct dpkg-query -W -f '${Package} ${Version}' libpulse0)" \
        || result deb-recommends INFO "libpulse0 (Recommends) not installed"
    local missing; missing="$(inct ldd /usr/bin/lightshow 2>&1 | grep 'not found' | tr -s ' \t' ' ')"
    [ -z "$missing" ] && result deb-libs PASS "every library of /usr/bin/lightshow resolves (no Swift toolchain in the container)" \
        || result deb-libs FAIL "missing: $missing"

    # ------------------------------------------------------------ control socket: root, a member of audio, nobody else
    sleep 1
    out="$(inct timeout 15 lightshow ctl status 2>&1)"; rc=$?
    if [ $rc -eq 0 ] && grep -q demo <<<"$out"; then result deb-ctl-root PASS "lightshow ctl status (root, default socket $SOCK): $(head -3 <<<"$out" | tr '\n' ' ')"
    else result deb-ctl-root FAIL "rc=$rc $(head -3 <<<"$out" | tr '\n' '|')"; fi
    out="$(inct runuser -u tester -- timeout 15 lightshow ctl --socket $SOCK status 2>&1)"; rc=$?
    local perm; perm="$(inct stat -c '%n %A %U:%G' /run/lightshow $SOCK 2>/dev/null | tr '\n' ' ')"
    [ $rc -eq 0 ] && result deb-ctl-audio PASS "user 'tester' (group audio): ctl --socket $SOCK status answers ($perm)" \
        || result deb-ctl-audio FAIL "tester: rc=$rc $(head -2 <<<"$out" | tr '\n' '|') ($perm)"
    out="$(inct runuser -u nobody -- timeout 15 lightshow ctl --socket $SOCK status 2>&1)"; rc=$?
    [ $rc -ne 0 ] && result deb-ctl-other PASS "user 'nobody' (not in audio) is refused: rc=$rc $(head -1 <<<"$out")" \
        || result deb-ctl-other FAIL "nobody reached the socket"

    # ------------------------------------------------------------ an edited conffile across an upgrade
    local conf=/etc/lightshow/lightshow.toml
    inct sed -i 's/^idle_after = "10s"/idle_after = "42s"/' $conf
    out="$(inct lightshow config check $conf 2>&1)"; rc=$?
    inct systemctl reload lightshow.service >/dev/null 2>&1 || result deb-edit FAIL "reload after editing $conf failed: $out"
    conf_sum="$(inct md5sum $conf | cut -d' ' -f1)"
    grep -q '^idle_after = "42s"' "$RUNROOT$conf" || result deb-edit FAIL "the edit did not land in $conf"
    pid1="$(prop lightshow MainPID)"
    t0=$(now_ms); out="$(apt_in install -y "./$(basename "$DEB_NEXT")")"; rc=$?
    echo "$out" >"$LOGDIR/apt-upgrade.log"
    local t_up=$(( $(now_ms) - t0 ))
    pid2="$(prop lightshow MainPID)"
    local side; side="$(inct find /etc/lightshow -name '*.dpkg-*' | tr '\n' ' ')"
    if [ $rc -eq 0 ] && [ "$(pkg_status)" = "ii $v2" ] && [ "$(inct md5sum $conf | cut -d' ' -f1)" = "$conf_sum" ] \
            && [ -z "$side" ]; then
        result deb-upgrade-conffile PASS "$v1 -> $v2 in $(secs $t_up): the edited $conf is kept as edited (idle_after = \"42s\"), no .dpkg-new/.dpkg-dist beside it"
    else
        result deb-upgrade-conffile FAIL "rc=$rc status='$(pkg_status)' side files='$side' $(grep -m1 idle_after "$RUNROOT$conf")"
    fi
    if [ "$(state)" = active/running ] && [ -n "$pid2" ] && [ "$pid2" != 0 ] && [ "$pid2" != "$pid1" ]; then
        result deb-upgrade-restart PASS "try-restarted by the upgrade: MainPID $pid1 -> $pid2, active (running)"
    else result deb-upgrade-restart FAIL "state=$(state) MainPID $pid1 -> $pid2"; fi
    out="$(inct timeout 15 lightshow ctl status 2>&1)"
    [ $? -eq 0 ] && result deb-upgrade-ctl PASS "ctl status answers after the upgrade" || result deb-upgrade-ctl FAIL "$(head -2 <<<"$out")"

    # A service the admin stopped stays stopped across a reinstall (try-restart, not restart).
    inct systemctl stop lightshow.service
    out="$(apt_in install -y --reinstall "./$(basename "$DEB_NEXT")")"; rc=$?
    [ $rc -eq 0 ] && [ "$(state)" = inactive/dead ] && result deb-reinstall-stopped PASS "stopped, reinstalled: still inactive (dead)" \
        || result deb-reinstall-stopped FAIL "rc=$rc state=$(state)"
    inct systemctl start lightshow.service

    # ------------------------------------------------------------ remove: stopped, conffile kept
    [ "$(state)" = active/running ] || result deb-remove FAIL "not running before remove: $(state)"
    local had_state=no
    inct test -d /var/lib/private/lightshow && had_state=yes
    t0=$(now_ms); out="$(apt_in remove -y lightshow)"; rc=$?
    echo "$out" >"$LOGDIR/apt-remove.log"
    local t_rm=$(( $(now_ms) - t0 ))
    local procs; procs="$(inct pgrep -x lightshow | tr '\n' ' ')"
    if [ $rc -eq 0 ] && [ "$(pkg_status)" = "rc $v2" ] && [ -z "$procs" ] && [ "$(prop lightshow ActiveState)" = inactive ] \
            && inct test -f $conf && ! inct test -e /usr/bin/lightshow; then
        result deb-remove PASS "apt remove in $(secs $t_rm): stopped (no lightshow process, unit $(prop lightshow LoadState)), binary gone, $conf kept (dpkg: $(pkg_status))"
    else
        result deb-remove FAIL "rc=$rc status='$(pkg_status)' processes='$procs' state=$(prop lightshow ActiveState) conf=$(inct test -f $conf && echo kept || echo gone)"
    fi
    grep -q 'Stopped lightshow' <<<"$(inct journalctl -b --no-pager -o cat -u lightshow.service | tail -5)" \
        || result deb-remove WARN "no 'Stopped lightshow' in the journal"

    # ------------------------------------------------------------ purge: nothing of the package left
    t0=$(now_ms); out="$(apt_in purge -y lightshow)"; rc=$?
    echo "$out" >"$LOGDIR/apt-purge.log"
    snapshot >"$LOGDIR/files-after-purge.txt"
    inct dpkg-query -W -f '${Package}\n' | sort >"$LOGDIR/packages-after.txt"
    # Files the dependencies brought are theirs, not the package's. dpkg knows some by their /lib name, which the
    # merged /usr of bookworm puts under /usr/lib.
    comm -13 "$LOGDIR/packages-before.txt" "$LOGDIR/packages-after.txt" >"$LOGDIR/packages-added.txt"
    if [ -s "$LOGDIR/packages-added.txt" ]; then
        # shellcheck disable=SC2046
        inct dpkg-query -L $(cat "$LOGDIR/packages-added.txt") 2>/dev/null \
            | sed -E 'p; s#^/(bin|sbin|lib|lib32|lib64|libx32)(/|$)#/usr/\1\2#' | sort -u >"$LOGDIR/files-of-dependencies.txt"
    else : >"$LOGDIR/files-of-dependencies.txt"; fi
    comm -13 "$LOGDIR/files-before.txt" "$LOGDIR/files-after-purge.txt" | comm -23 - "$LOGDIR/files-of-dependencies.txt" \
        >"$LOGDIR/leftovers.txt"
    local named; named="$(grep -i lightshow "$LOGDIR/files-after-purge.txt" | grep -v '^/etc/systemd/system/lightshow.service.d' | tr '\n' ' ')"
    local gone; gone="$(pkg_status)"
    if [ $rc -eq 0 ] && { [ -z "$gone" ] || [[ "$gone" == un* ]]; } && [ ! -s "$LOGDIR/leftovers.txt" ] && [ -z "$named" ] \
            && [ $had_state = yes ]; then
        result deb-purge PASS "apt purge in $(secs $(( $(now_ms) - t0 ))): dpkg forgets it; of the $(comm -13 "$LOGDIR/files-before.txt" "$LOGDIR/files-after-purge.txt" | wc -l) paths the install added, all are its dependencies' (the state directory /var/lib/private/lightshow, there before, is gone; only the admin's drop-in still names lightshow)"
    else
        result deb-purge FAIL "rc=$rc status='$(pkg_status)' state dir before purge: $had_state; left: $(head -20 "$LOGDIR/leftovers.txt" | tr '\n' ' ') named: $named"
    fi

    # ------------------------------------------------------------ policy-rc.d says no: enabled, not started
    printf '#!/bin/sh\nexit 101\n' | inct tee /usr/sbin/policy-rc.d >/dev/null; inct chmod 0755 /usr/sbin/policy-rc.d
    out="$(apt_in install -y "./$(basename "$DEB")")"; rc=$?
    if [ $rc -eq 0 ] && [ "$(inct systemctl is-enabled lightshow.service)" = enabled ] && [ "$(state)" = inactive/dead ]; then
        result deb-policy-rc.d PASS "with policy-rc.d exiting 101: installed and enabled, not started"
    else result deb-policy-rc.d FAIL "rc=$rc enabled=$(inct systemctl is-enabled lightshow.service) state=$(state)"; fi
    inct rm -f /usr/sbin/policy-rc.d
    apt_in purge -y lightshow >/dev/null
}
