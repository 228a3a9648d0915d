#!/usr/bin/env bash
# The cost of this crate's bots on the three chips, one command:
#   ./cost.sh --game tower-defense --vs strong [--bot builder] [--board qemu-lm3s6965|rp-pico|stm32f411|all]
# builds this crate's board binaries (boards/*), plays each lineup entry that matches alone on each
# chip's emulator, and prints per chip and per seat the bot's cost a turn (min / median / p99 /
# max, and as a share of the game's time limit at the chip's clock), its stack high-water and its
# flash bytes, beside the built-in bots in the same matches. It is the project's
# `cargo xtask cost --template <this folder>`, run in the project: $ARENA_PROJECT, else two folders
# up (the template's place in the project). Without --board: QEMU only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
project="${ARENA_PROJECT:-$(cd "$here/../.." && pwd)}"
cd "$project"
# The project's xtask builds in the project's target, whatever target this crate builds in.
unset CARGO_TARGET_DIR
exec cargo xtask cost --template "$here" "$@"
