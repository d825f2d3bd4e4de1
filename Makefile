# lightshow: `make run` for the demo light show, `make test` for every test.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# The release binary has the Swift runtime and Foundation linked in: it needs nothing from the toolchain (what
# `make install` installs), and it maps less than the dynamically linked one (29 MB resident before start-up's code
# pages are released, 22 MB static; 11-13 MB after: Tests/Benchmarks/memory.sh). `make run` and `make bench` use
# the same binary.
BIN_RELEASE := .build/release/lightshow
# The web server's process (README, "Web page and HTTP API"): the daemon looks for it beside its own binary, which
# is where `make release` puts it, and `make install` puts it in PREFIX/libexec/lightshow.
WEB_RELEASE := .build/release/lightshow-web
COMPLETIONS_DIR := .build/completions
MAN_DIR := .build/man

# Debian packages: what building needs, what the tests drive for real, what the benchmarks compare against.
BUILD_PACKAGES := pkg-config libfftw3-dev libsndfile1-dev libasound2-dev libasound2-plugins zlib1g-dev libdeflate-dev libfreetype-dev fonts-dejavu-core libpulse-dev libsystemd-dev
TEST_PACKAGES := $(BUILD_PACKAGES) libpng-dev util-linux mount e2fsprogs sox alsa-utils pulseaudio pulseaudio-utils mpd mpc tmux pngcheck systemd ola ola-python iproute2 pipewire pipewire-pulse wireplumber dbus dbus-user-session mpv mpv-mpris playerctl python3-dbus
BENCH_PACKAGES := $(TEST_PACKAGES) cava ffmpeg python3
# Tests/Benchmarks/accents.sh renders MIDI with FluidSynth and scores onsets against aubio with mir_eval (PyPI, in a
# venv of its own: Debian's python3 is externally managed). accents.sh names the same requirements.
BENCH_PACKAGES += fluidsynth fluid-soundfont-gm aubio-tools python3-venv
# python3 reads the compiler's diagnostics for scripts/check-warnings.sh (make test, test-unit, check-warnings).
BUILD_PACKAGES += python3
TEST_PACKAGES += python3
BENCH_PYTHON := .build/bench-python
BENCH_PYPI := mido==1.3.3 mir_eval==0.8.2
# MQTT: libmosquitto's header to build (the library itself is opened at run time), a broker and its clients for the
# tests and the memory benchmark.
BUILD_PACKAGES += libmosquitto-dev
TEST_PACKAGES += libmosquitto-dev libmosquitto1 mosquitto mosquitto-clients
BENCH_PACKAGES += libmosquitto-dev libmosquitto1 mosquitto mosquitto-clients
# Philips Hue: OpenSSL's and libcurl's headers to build (both libraries are opened at run time, only for a `hue`
# output or `lights pair-hue`); the libraries, openssl's s_server (the DTLS peer) and python3 (the stand-in bridge)
# for the tests and the Hue benchmark.
BUILD_PACKAGES += libssl-dev libcurl4-openssl-dev
TEST_PACKAGES += libssl3 libcurl4 openssl
BENCH_PACKAGES += libssl3 libcurl4 openssl
# `make deb`: Debian's packaging tools (dpkg-buildpackage's build-essential check, debhelper, lintian).
DEB_PACKAGES := $(BUILD_PACKAGES) build-essential dpkg-dev debhelper lintian
# `make test-deb`: a Debian root made by debootstrap, booted with systemd-nspawn (scripts/systemd-container.sh).
DEB_TEST_PACKAGES := $(DEB_PACKAGES) debootstrap systemd-container bpftool
# ...and curl, which asks the packaged service's web server in the container's network namespace.
DEB_TEST_PACKAGES += curl
# A real desktop terminal: xterm on Xvfb, read back with ImageMagick's import (screenshot tests, desktop-cost.sh).
TEST_PACKAGES += xterm xvfb imagemagick
BENCH_PACKAGES += xterm xvfb imagemagick
# `/metrics`: promtool checks the text format, and a real Prometheus on loopback scrapes the daemon (curl asks both).
TEST_PACKAGES += prometheus curl
# The web page in a real browser: Chromium driven through chromedriver by Selenium (Tests/Browser/web_page_test.py).
TEST_PACKAGES += chromium chromium-driver python3-selenium
# Tests/Benchmarks/web.sh: WebSocket viewers in Debian's python3, and the page open in headless Chromium.
BENCH_PACKAGES += python3-websockets
BENCH_PACKAGES += chromium

.PHONY: all deps deps-test deps-bench build release man run test test-tag check-units check-install bench completions install uninstall clean fuzz soak
.PHONY: test-unit check-warnings
.PHONY: deb test-deb deps-deb deps-deb-test

all: build

deps:
	@scripts/install-packages.sh $(BUILD_PACKAGES)

deps-test:
	@scripts/install-packages.sh $(TEST_PACKAGES)

deps-bench:
	@scripts/install-packages.sh $(BENCH_PACKAGES)
	@scripts/install-python-packages.sh $(BENCH_PYTHON) $(BENCH_PYPI)

build: deps
	$(SWIFT) build

# Only the product: the fuzz targets' @testable imports don't compile in a release build. Cross-module optimisation
# lets the compiler specialise and inline the core's generic code (the playback machine over its clock, locks,
# sample blocks) where the engine and the readers call it: with the engine's held blocks, 7-12% less CPU in paired
# runs of Tests/Benchmarks/cava-live.sh, for about a minute more of build.
# --no-export-dynamic: the static Swift runtime's link exports every symbol of ours and of the packages (a 2.8 MB
# dynamic symbol table), and the loader's lookups kept 1 MB of it resident in every daemon. Nothing needs them: a
# stripped binary's crash backtrace named none of our frames with them either (memory rows of Tests/Benchmarks/web.sh).
# Two products: lightshow, and lightshow-web, the web server's process the daemon starts for [web] (its HTTP and
# WebSocket libraries kept out of the daemon's binary: README, "Web page and HTTP API").
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -cross-module-optimization -Xlinker --no-export-dynamic
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lightshow
	$(SWIFT) build $(RELEASE_FLAGS) --product lightshow-web

# lightshow(1), generated from the command definitions by swift-argument-parser's manual plugin (it builds the
# package and runs --experimental-dump-help); dated by the last commit so the page is reproducible. The debug
# configuration: the same commands, the build `make test` already has, and the fuzz targets' @testable imports
# only compile with testing enabled.
man: deps
	$(SWIFT) package plugin generate-manual --configuration debug --date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)"
	@mkdir -p $(MAN_DIR)
	@# Blank lines of the help text stay blank in the page, which groff (and lintian) warn about: a blank line there
	@# means a paragraph break, .Pp.
	@sed 's/^$$/.Pp/' "$$(find .build/plugins -name lightshow.1 -newer Package.swift | head -n 1)" > $(MAN_DIR)/lightshow.1
	@echo "manual page in $(MAN_DIR)/lightshow.1"

run: release
	$(BIN_RELEASE) watch --input demo

test: deps-test deps-deb
	$(SWIFT) build --build-tests
	scripts/check-warnings.sh
	scripts/check-os-idioms.sh
	scripts/check-units.sh .build/debug/lightshow
	scripts/check-install.sh
	scripts/check-deb.sh
	SWIFT=$(SWIFT) scripts/run-tests.sh

# Quick feedback: the tests that start no outside process (scripts/unit-test-skips.sh says which do), in two
# processes side by side (scripts/test-unit.sh); under a minute once built.
test-unit: deps
	$(SWIFT) build --build-tests
	scripts/check-warnings.sh debug
	scripts/check-os-idioms.sh
	scripts/test-unit.sh

# No compiler warning in our sources, in the debug build (with the tests) and the release build.
check-warnings: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product lightshow
	$(SWIFT) build $(RELEASE_FLAGS) --product lightshow-web
	scripts/check-warnings.sh debug release

# The tests that need one outside component, found by their tags (Tests/TestSupport/TestTags.swift):
# make test-tag TAG=tmux   (also pulseAudio, mpd). This swift-testing has no tag filter, so the tagged
# suites' names become a --filter.
test-tag: deps-test
	$(SWIFT) build --build-tests
	@suites=$$(grep -rhoE '@Suite\([^{]*\.tags\([^)]*\.$(TAG)\b[^{]*struct [A-Za-z]+' Tests | sed 's/.*struct //' | paste -sd'|'); \
		[ -n "$$suites" ] || { echo "no suite is tagged .$(TAG)"; exit 1; }; \
		echo "suites tagged .$(TAG): $$suites"; \
		$(SWIFT) test --skip-build --no-parallel --filter "$$suites"

# systemd-analyze verify (no output allowed) on both units, and the system unit's exposure ≤ 2.0.
check-units:
	$(SWIFT) build --product lightshow
	scripts/check-units.sh .build/debug/lightshow

# make install into a scratch DESTDIR: the binary runs from a copy elsewhere without the toolchain, the installed
# daemon starts the installed lightshow-web for --web, and the manual page renders.
check-install:
	scripts/check-install.sh

# Coverage-guided fuzzing of the parsers (config, control lines, MPD replies, raw PCM, audio files, keys) with
# libFuzzer, FUZZ_SECONDS (default 60) per target in FUZZ_JOBS processes (default 1); prints executions and crashes.
# Not part of `make test` or CI.
fuzz: deps-test
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) FUZZ_JOBS=$(or $(FUZZ_JOBS),1) scripts/fuzz.sh

# The daemon for SOAK_SECONDS (default an hour) at 60 fps with two subscribers, status every second, reloads every
# 5 s (good and bad files in turn) and MPD killed and restarted every minute; reports RSS, fds and failures.
# The binary `make install` installs.
soak: deps-test release
	SOAK_SECONDS=$(or $(SOAK_SECONDS),3600) Tests/Soak/soak.sh $(BIN_RELEASE)

# Shell completions generated by the binary itself (bash, zsh, fish), for `make install`. bash-completion sources
# its files, so the bash script's #! line goes.
completions: release
	@mkdir -p $(COMPLETIONS_DIR)
	@for shell in bash zsh fish; do \
		case $$shell in bash) out=lightshow.bash;; zsh) out=_lightshow;; fish) out=lightshow.fish;; esac; \
		$(BIN_RELEASE) --generate-completion-script $$shell > $(COMPLETIONS_DIR)/$$out.tmp \
			&& sed -i '1{/^#!/d}' $(COMPLETIONS_DIR)/$$out.tmp \
			&& mv $(COMPLETIONS_DIR)/$$out.tmp $(COMPLETIONS_DIR)/$$out || exit 1; \
	done
	@echo "completions in $(COMPLETIONS_DIR): lightshow.bash _lightshow lightshow.fish"

# Installs the binary (Swift runtime linked in) and lightshow-web, the web server's process the daemon starts for
# [web]; the manual page, completions, the README and the config reference (every key with its default), the default
# config (kept if already there) and the units.
BINDIR := $(PREFIX)/bin
UNITDIR := $(PREFIX)/lib/systemd/system
USERUNITDIR := $(PREFIX)/lib/systemd/user
# The static crash backtracer of the toolchain the binary was built with: installed beside it (the units point
# SWIFT_BACKTRACE there), so a crash under the hardened units still leaves a backtrace and nothing needs the toolchain.
SWIFT_BACKTRACER ?= $(realpath $(dir $(realpath $(shell command -v $(SWIFT))))../libexec/swift/linux/swift-backtrace-static)
SHAREDIR := $(PREFIX)/share
MANDIR := $(SHAREDIR)/man/man1
# Debian's zsh reads vendor-completions instead (the package sets it).
ZSHCOMPDIR ?= $(SHAREDIR)/zsh/site-functions
DOCDIR := $(SHAREDIR)/doc/lightshow
BACKTRACER := $(PREFIX)/libexec/lightshow/swift-backtrace-static
# Where the daemon looks for lightshow-web when it is not beside its own binary: ../libexec/lightshow from BINDIR.
WEB_BINARY := $(PREFIX)/libexec/lightshow/lightshow-web
# The units name /usr/local's binaries, the toolchain's backtracer and /usr/local/libexec/lightshow (ExecPaths=):
# installed, they name where these went.
UNIT_PATHS := s|/usr/local/bin/lightshow|$(BINDIR)/lightshow|g; s|/opt/swift/usr/libexec/swift/linux/swift-backtrace-static|$(BACKTRACER)|g; s|/usr/local/libexec/lightshow/|$(PREFIX)/libexec/lightshow/|g
install: completions man
	install -D -m 0755 $(BIN_RELEASE) $(DESTDIR)$(BINDIR)/lightshow
	install -D -m 0755 $(WEB_RELEASE) $(DESTDIR)$(WEB_BINARY)
	install -D -m 0644 $(MAN_DIR)/lightshow.1 $(DESTDIR)$(MANDIR)/lightshow.1
	install -D -m 0755 $(SWIFT_BACKTRACER) $(DESTDIR)$(BACKTRACER)
	install -D -m 0644 $(COMPLETIONS_DIR)/lightshow.bash $(DESTDIR)$(SHAREDIR)/bash-completion/completions/lightshow
	install -D -m 0644 $(COMPLETIONS_DIR)/_lightshow $(DESTDIR)$(ZSHCOMPDIR)/_lightshow
	install -D -m 0644 $(COMPLETIONS_DIR)/lightshow.fish $(DESTDIR)$(SHAREDIR)/fish/vendor_completions.d/lightshow.fish
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -D -m 0644 config/lightshow.toml $(DESTDIR)$(DOCDIR)/lightshow.toml
	[ -e $(DESTDIR)/etc/lightshow/lightshow.toml ] || install -D -m 0644 config/lightshow.toml $(DESTDIR)/etc/lightshow/lightshow.toml
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(USERUNITDIR)
	sed '$(UNIT_PATHS)' systemd/lightshow.service > $(DESTDIR)$(UNITDIR)/lightshow.service
	sed '$(UNIT_PATHS)' systemd/lightshow-user.service > $(DESTDIR)$(USERUNITDIR)/lightshow.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/lightshow.service $(DESTDIR)$(USERUNITDIR)/lightshow.service

# Removes what install put there, except a config file the admin may have edited.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lightshow $(DESTDIR)$(WEB_BINARY) $(DESTDIR)$(MANDIR)/lightshow.1 $(DESTDIR)$(BACKTRACER) \
		$(DESTDIR)$(SHAREDIR)/bash-completion/completions/lightshow \
		$(DESTDIR)$(ZSHCOMPDIR)/_lightshow \
		$(DESTDIR)$(SHAREDIR)/fish/vendor_completions.d/lightshow.fish \
		$(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/lightshow.toml \
		$(DESTDIR)$(UNITDIR)/lightshow.service $(DESTDIR)$(USERUNITDIR)/lightshow.service
	@if cmp -s config/lightshow.toml $(DESTDIR)/etc/lightshow/lightshow.toml; then \
		rm -f $(DESTDIR)/etc/lightshow/lightshow.toml; rmdir $(DESTDIR)/etc/lightshow 2>/dev/null || true; \
	else [ ! -e $(DESTDIR)/etc/lightshow/lightshow.toml ] || echo "kept $(DESTDIR)/etc/lightshow/lightshow.toml (edited)"; fi

# The Debian package lightshow_<version>_<arch>.deb (and lightshow-dbgsym, its symbols) in .build/deb:
# dpkg-buildpackage with debhelper (debian/), whose rules call `make release completions man` and `make install
# DESTDIR=… PREFIX=/usr`. The version is VERSION's, as `lightshow --version` prints. scripts/check-deb.sh (part of
# `make test`) builds and checks it.
deb: deps-deb
	scripts/build-deb.sh

# The package under a real systemd (Debian 12 booted in systemd-nspawn; root): apt install starts the service and
# `ctl status` answers root and a member of audio; [web] listen and a reload start lightshow-web in the service's
# cgroup and /api/status answers; an edited config survives the upgrade to a rebuild (VERSION+b1, as a binNMU); apt
# remove stops it; apt purge leaves nothing. Not in `make test`: it needs root, and the first run
# debootstraps Debian (cached in $$TMPDIR/lightshow-systemd-deb).
test-deb: deps-deb-test
	deb="$$(scripts/build-deb.sh)" && next="$$(DEB_VERSION="$$(head -n 1 VERSION)+b1" scripts/build-deb.sh)" \
		&& DEB="$$deb" DEB_NEXT="$$next" scripts/systemd-container.sh

deps-deb:
	@scripts/install-packages.sh $(DEB_PACKAGES)

deps-deb-test:
	@scripts/install-packages.sh $(DEB_TEST_PACKAGES)

bench: deps-bench release
	@for b in Tests/Benchmarks/*.sh; do [ -x "$$b" ] && LIGHTSHOW_BIN=$(BIN_RELEASE) "$$b" || exit 1; done

clean:
	rm -rf .build
