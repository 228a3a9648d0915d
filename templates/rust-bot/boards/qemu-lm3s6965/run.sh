#!/usr/bin/env bash
# Cargo runner: boots ELF ($1) in QEMU's lm3s6965evb and decodes its defmt log (semihosting) live,
# as the project's boards/qemu-lm3s6965/run.sh does, with `-icount shift=0`: SysTick then counts
# instructions, so the log's cost lines are Cortex-M3 instructions a turn.
# Extra arguments reach the firmware as its semihosting command line (key=value: matches=N,
# digest=N, ...).
set -euo pipefail
elf="$1"; shift
args=""
for a in "$@"; do args="$args,arg=$a"; done
qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic -monitor none -serial null \
  -icount shift=0 -semihosting-config "enable=on,target=native$args" -kernel "$elf" \
  | defmt-print -e "$elf"
