# The Debian package under a real systemd: sourced by scripts/systemd-container.sh when DEB= is given, and uses its
# helpers (result, inct, prop, now_ms, secs) and settings (RUNROOT, LOGDIR, DEB, DEB_NEXT).
# deb_prepare_root runs before the boot, on the per-run copy of the root; deb_checks runs in the booted container:
# apt install (enabled, started, ctl answers root and a member of audio, not others), [web] turned on by a config
# edit and a reload (the daemon starts /usr/libexec/lightshow/lightshow-web in the unit's cgroup, under its
# hardening, and /api/status answers), an edited conffile across an upgrade (try-restarted, the web server back),
# systemctl stop (the daemon stops its web server itself), a stopped service staying stopped across a reinstall,
# apt remove (stopped, conffile kept), apt purge (nothing of the package left), and policy-rc.d forbidding the start.

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
WEB_URL=http://127.0.0.1:8490/api/status
web_status() { # web_status: polls WEB_URL for up to 20 s; prints the last HTTP code (the body is in LOGDIR/web-status.json)
    # The host's curl in the container's network namespace: the container has no curl, and its loopback is its own.
    local code=000 deadline=$(( $(now_ms) + 20000 ))
    while [ "$(now_ms)" -lt $deadline ]; do
        code="$(nsenter -t "$CPID" -n curl -s -o "$LOGDIR/web-status.json" -w '%{http_code}' --max-time 3 "$WEB_URL")"
        [ "$code" = 200 ] && break
        sleep 0.1
    done
    echo "$code"
}
web_pid() { inct pgrep -x lightshow-web | tr '\n' ' ' | sed 's/ $//'; }
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

    # ------------------------------------------------------------ [web] on: lightshow-web under the hardened unit
    local conf=/etc/lightshow/lightshow.toml code wpid cg
    inct sed -i 's/^listen = ""/listen = "127.0.0.1:8490"/' $conf
    grep -q '^listen = "127.0.0.1:8490"' "$RUNROOT$conf" || result deb-web FAIL "the [web] listen edit did not land in $conf"
    t0=$(now_ms)
    inct systemctl reload lightshow.service >"$LOGDIR/web-reload.log" 2>&1 || result deb-web FAIL "systemctl reload: $(tail -2 "$LOGDIR/web-reload.log" | tr '\n' '|')"
    code="$(web_status)"
    if [ "$code" = 200 ] && grep -q '"ok":true' "$LOGDIR/web-status.json"; then
        result deb-web PASS "[web] listen = \"127.0.0.1:8490\" + systemctl reload: GET $WEB_URL in the container answers 200 $(head -c 40 "$LOGDIR/web-status.json")… after $(secs $(( $(now_ms) - t0 )))"
    else
        result deb-web FAIL "GET $WEB_URL: HTTP $code $(head -c 200 "$LOGDIR/web-status.json" 2>/dev/null); journal: $(inct journalctl -b --no-pager -o cat -u lightshow.service | tail -4 | tr '\n' '|')"
    fi
    inct systemctl status lightshow.service --no-pager -l >"$LOGDIR/status-web.txt" 2>&1
    wpid="$(web_pid)"; cg="$(prop lightshow ControlGroup)"
    if [ -n "$wpid" ] && [[ "$wpid" != *" "* ]] && grep -qE "(^|[^0-9])$wpid lightshow-web" "$LOGDIR/status-web.txt" \
            && inct grep -qx "$wpid" "/sys/fs/cgroup$cg/cgroup.procs" \
            && [ "$(inct readlink "/proc/$wpid/exe")" = /usr/libexec/lightshow/lightshow-web ] \
            && [ "$(inct ps -o ppid= -p "$wpid" | tr -d ' ')" = "$(prop lightshow MainPID)" ]; then
        result deb-web-cgroup PASS "systemctl status lists '$(grep -m1 -oE "[0-9]+ lightshow-web.*" "$LOGDIR/status-web.txt")' in $cg: /usr/libexec/lightshow/lightshow-web, child of MainPID $(prop lightshow MainPID), as user $(inct ps -o user= -p "$wpid")"
    else
        result deb-web-cgroup FAIL "lightshow-web pid '${wpid:-none}' in $cg: $(grep -A4 CGroup "$LOGDIR/status-web.txt" | tr '\n' '|')"
    fi

    # ------------------------------------------------------------ nothing runs but lightshow's own binaries
    # A test-only ALSA config whose PCM pipes to a shell, named on the service's command line by an admin's drop-in
    # (the one place a PCM name is taken as written): the service's attempt to start /bin/sh fails under
    # NoExecPaths=/, and no file appears. Clients can't name it at all: the web's set-input is refused (the
    # socket's and MQTT's: ClientChosenInputTests).
    local marker=/var/lib/private/lightshow/pwned dropin=/etc/systemd/system/lightshow.service.d/zz-evil-input.conf seen=""
    printf 'pcm.evil {\n  type file\n  slave.pcm "null"\n  file "|touch /var/lib/lightshow/pwned"\n  hint { show on description "test only" }\n}\n' \
        >"$RUNROOT/etc/asound.conf"
    printf '[Service]\nExecStart=\nExecStart=/usr/bin/lightshow daemon --config /etc/lightshow/lightshow.toml --input alsa:evil\n' >"$RUNROOT$dropin"
    inct systemctl daemon-reload
    t0=$(now_ms)
    inct systemctl restart lightshow.service >"$LOGDIR/noexec-restart.log" 2>&1
    for _ in $(seq 1 75); do
        seen="$(inct journalctl -u lightshow.service -b --no-pager -o cat --since "@$(( t0 / 1000 ))" \
            | grep -m1 -iE 'alsa:evil.*(denied|cannot|failed|error|lost)')"
        [ -n "$seen" ] && break; sleep 0.2
    done
    inct journalctl -u lightshow.service -b --no-pager -o cat --since "@$(( t0 / 1000 ))" >"$LOGDIR/noexec-journal.txt"
    # Once the restarted web server answers, the host's curl in the container's network namespace asks it.
    code="$(web_status)"
    code="$(nsenter -t "$CPID" -n curl -s -o /dev/null -w '%{http_code}' --max-time 15 -X POST \
        --data '{"input":"alsa:file:|touch /var/lib/lightshow/pwned"}' http://127.0.0.1:8490/api/set-input)"
    if [ ! -e "$RUNROOT$marker" ] && [ -n "$seen" ] && [ "$code" = 400 ] && [ "$(state)" = active/running ]; then
        result deb-noexec PASS "--input alsa:evil (file plugin piping to a shell): '$(cut -c1-120 <<<"$seen")'; no $marker; POST /api/set-input alsa:file:|… $code; still $(state)"
    else
        result deb-noexec FAIL "marker: $(ls -l "$RUNROOT$marker" 2>&1); journal: '${seen:-nothing}' ($(tail -3 "$LOGDIR/noexec-journal.txt" | tr '\n' '|')); web $code; state $(state)"
    fi
    rm -f "$RUNROOT$dropin" "$RUNROOT/etc/asound.conf"
    inct systemctl daemon-reload
    inct systemctl restart lightshow.service >/dev/null 2>&1 || result deb-noexec FAIL "restart with the demo input again failed"
    [ "$(web_status)" = 200 ] || result deb-noexec FAIL "the web server did not answer again after the restart"

    # ------------------------------------------------------------ an edited conffile across an upgrade
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
    # The restarted daemon starts the web server from the kept [web] listen, as at boot.
    code="$(web_status)"; local wpid2; wpid2="$(web_pid)"
    [ "$code" = 200 ] && [ -n "$wpid2" ] && [ "$wpid2" != "$wpid" ] \
        && result deb-upgrade-web PASS "after the restart: $WEB_URL answers 200 from a new lightshow-web (PID $wpid -> $wpid2)" \
        || result deb-upgrade-web FAIL "HTTP $code, lightshow-web PID '$wpid' -> '$wpid2'"

    # systemctl stop sends SIGTERM to the daemon alone (KillMode=mixed), which stops lightshow-web itself: none is
    # left, and no error says it was killed.
    local killed_before killed_after left
    killed_before="$(inct journalctl -b --no-pager -o cat -u lightshow.service | grep -c 'lightshow-web) stopped')"
    t0=$(now_ms); inct systemctl stop lightshow.service
    left="$(web_pid)"
    killed_after="$(inct journalctl -b --no-pager -o cat -u lightshow.service | grep -c 'lightshow-web) stopped')"
    [ "$(prop lightshow Result)" = success ] && [ -z "$left" ] && [ "$killed_after" = "$killed_before" ] \
        && result deb-stop-web PASS "systemctl stop in $(secs $(( $(now_ms) - t0 ))): Result=success, the daemon stopped lightshow-web (PID $wpid2) itself, no process left" \
        || result deb-stop-web FAIL "Result=$(prop lightshow Result), lightshow-web left: '${left}', 'lightshow-web) stopped' errors $killed_before -> $killed_after"
    # A service the admin stopped stays stopped across a reinstall (try-restart, not restart).
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
    # Two names: pgrep matches nothing for a pattern longer than a process name's 15 characters.
    local procs; procs="$({ inct pgrep -x lightshow; inct pgrep -x lightshow-web; } | tr '\n' ' ')"
    if [ $rc -eq 0 ] && [ "$(pkg_status)" = "rc $v2" ] && [ -z "$procs" ] && [ "$(prop lightshow ActiveState)" = inactive ] \
            && inct test -f $conf && ! inct test -e /usr/bin/lightshow; then
        result deb-remove PASS "apt remove in $(secs $t_rm): stopped (no lightshow or lightshow-web process, unit $(prop lightshow LoadState)), binary gone, $conf kept (dpkg: $(pkg_status))"
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
