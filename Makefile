# lightshow: `make run` for the demo light show, `make test` for every test.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BIN_RELEASE := .build/release/lightshow

# Debian packages: what building needs, what the tests drive for real, what the benchmarks compare against.
BUILD_PACKAGES := pkg-config libfftw3-dev libsndfile1-dev libasound2-dev libasound2-plugins zlib1g-dev libfreetype-dev fonts-dejavu-core
TEST_PACKAGES := $(BUILD_PACKAGES) libpng-dev sox alsa-utils pulseaudio pulseaudio-utils mpd mpc tmux pngcheck
BENCH_PACKAGES := $(TEST_PACKAGES) cava ffmpeg

.PHONY: all deps deps-test deps-bench build release run test bench clean

all: build

deps:
	@scripts/install-packages.sh $(BUILD_PACKAGES)

deps-test:
	@scripts/install-packages.sh $(TEST_PACKAGES)

deps-bench:
	@scripts/install-packages.sh $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	$(BIN_RELEASE) analyze --input demo --format ascii --realtime

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps-bench release
	@for b in Tests/Benchmarks/*.sh; do [ -x "$$b" ] && LIGHTSHOW_BIN=$(BIN_RELEASE) "$$b" || exit 1; done

clean:
	rm -rf .build
