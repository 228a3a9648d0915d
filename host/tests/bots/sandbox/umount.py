"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Unmounting /tmp, /proc, /dev, its own folder and /: what they would uncover."""
from hostile import *
for target in ["/tmp", "/proc", "/dev", HERE, "/"]:
    if libc.umount2(target.encode(), 2) == 0:
        escaped("unmounted " + target)
    else:
        held("umount %s: %s" % (target, err()))

pass_forever()
