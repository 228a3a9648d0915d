"""A sandboxed Ants bot that gives no orders: the baseline of the Ants peek attack."""
import sys

for line in sys.stdin:
    if line.strip() in ("ready", "go"):
        print("go", flush=True)
