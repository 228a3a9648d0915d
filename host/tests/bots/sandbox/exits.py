"""A sandboxed bot that exits at once: the baseline of the attacks a cap stops (the bot is
dropped at the start, as this one is) in host/tests/all/sandbox_attacks.rs."""
import sys

sys.exit(3)
