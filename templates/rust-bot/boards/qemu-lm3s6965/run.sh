#!/usr/bin/env bash
# Cargo runner: boots ELF ($1) in QEMU's lm3s6965evb and decodes its defmt log (semihosting) live.
# Extra arguments reach the firmware as its semihosting command line (key=value, see src/main.rs).
set -euo pipefail
elf="$1"; shift
args=""
for a in "$@"; do args="$args,arg=$a"; done
qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic -monitor none -serial null \
  -semihosting-config "enable=on,target=native$args" -kernel "$elf" | defmt-print -e "$elf"
