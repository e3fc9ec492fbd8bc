# Shared by the tools/ scripts: installs the Debian packages LiftLedger needs, when they are missing.
# shellcheck shell=bash

# require_packages PACKAGE... : each package is checked with dpkg; missing ones are installed with apt-get when running
# as root, else the script stops with the one command that installs them.
require_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "installing ${missing[*]} (apt-get)..." >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 || {
            echo "error: could not install ${missing[*]}; install them with: apt-get install -y ${missing[*]}" >&2
            exit 1
        }
    else
        echo "error: LiftLedger needs ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
}

# The Debian packages that building the liftledger tool needs.
BUILD_PACKAGES=(liblmdb-dev)
# The harness (crash tests, benchmarks) needs SQLite as well, for the benchmarks' peer.
HARNESS_PACKAGES=(liblmdb-dev libsqlite3-dev)
# And the tests python3-lmdb, for the independent journal reader in tools/, strace, to see a journal's and a
# backup's directories flushed, and tzdata, the zone files that `TZ` names and `date` reads.
TEST_PACKAGES=(liblmdb-dev libsqlite3-dev python3-lmdb strace tzdata)
