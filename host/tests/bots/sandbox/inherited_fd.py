"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Reading and writing through descriptors arena inherited."""
from hostile import *
fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
say("descriptors:", fds)
for fd in range(3, 64):
    try:
        data = os.pread(fd, 100, 0)
        escaped("read through descriptor %d: %r" % (fd, data))
    except OSError:
        pass
    try:
        os.write(fd, b"WRITTEN-BY-THE-BOT")
        escaped("wrote through descriptor %d" % fd)
    except OSError:
        pass
held("no descriptor above 2")

pass_forever()
