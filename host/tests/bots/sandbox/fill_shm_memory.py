"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Filling /dev/shm past --bot-memory 48 (tmpfs pages count against the memory cap)."""
from hostile import *
block = b"x" * (1 << 20)
for i in range(200):
    with open("/dev/shm/f%d" % i, "wb") as f:
        f.write(block)
escaped("wrote 200 MB into /dev/shm with --bot-memory 48")

pass_forever()
