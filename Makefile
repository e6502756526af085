# The two quick-start commands (make demo, make test) install what they need themselves.
SHELL := /bin/bash
APT_PACKAGES := pkg-config libsodium-dev libsecret-1-dev libsqlite3-dev sqlite3 openssh-client

.PHONY: deps build demo test bench clean

# Installs the Debian packages that are missing (apt-get update first, only when needed).
deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	swift build

# Runs the main job end to end on a temporary vault.
demo: deps
	swift build --product credctl
	./scripts/demo.sh "$$(swift build --show-bin-path)/credctl"

# Builds and runs the whole test suite.
test: deps
	swift build --build-tests
	swift test --skip-build

# Release-built benchmark; prints a table and writes bench-results/credbench.json.
bench: deps
	swift run -c release credbench

clean:
	swift package clean
