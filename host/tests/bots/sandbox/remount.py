"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Remounting / , its own folder, /usr and /tmp read-write; a user namespace of its own."""
from hostile import *
MS_REMOUNT, MS_BIND = 32, 4096
for target in ["/", HERE, "/usr", "/tmp"]:
    if libc.mount(None, target.encode(), None, MS_REMOUNT | MS_BIND, None) == 0:
        escaped("remounted " + target + " read-write")
    else:
        held("remount %s: %s" % (target, err()))
try:
    open(os.path.join(HERE, "written"), "w").write("x")
    escaped("wrote into its own folder")
except OSError as e:
    held("write into its folder: %s" % e)
if libc.unshare(0x10000000) == 0:
    escaped("unshare(CLONE_NEWUSER): all capabilities in a user namespace of its own")
else:
    held("unshare: " + err())

pass_forever()
