"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Filling /tmp and /dev/shm (with --bot-disk 16: 17 MB at most in all)."""
from hostile import *
total = 0
block = b"x" * (1 << 20)
for where in ["/tmp/scratch", "/dev/shm", "/tmp"]:
    i = 0
    try:
        while total < (1 << 30):
            with open(os.path.join(where, "f%d" % i), "wb") as f:
                f.write(block)
            i += 1
            total += 1
    except OSError as e:
        held("%s full after %d MB in all: %s" % (where, total, errno.errorcode.get(e.errno)))
if total > 17:
    escaped("wrote %d MB with --bot-disk 16" % total)

pass_forever()
