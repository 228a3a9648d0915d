#!/usr/bin/env bash
# Cargo runner of the rp-pico and stm32f411 folders: boots the ELF ($2) on the project's emulator
# of board $1 (`cargo xtask emulate <board> --elf ELF`, run in the project: $ARENA_PROJECT, else
# three folders up; the first run sets the emulators up). Extra arguments go to xtask emulate
# (--matches N, --snap N).
# To flash a real board instead: `probe-rs run --chip <chip> ELF` (docs/boards.md).
set -euo pipefail
board="$1"; elf="$(realpath "$2")"; shift 2
project="${ARENA_PROJECT:-$(cd "$(dirname "$0")/../../.." && pwd)}"
cd "$project"
# The project's xtask builds in the project's target, whatever target this firmware was built in.
unset CARGO_TARGET_DIR
exec cargo xtask emulate "$board" --elf "$elf" "$@"
