"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Reading the other seat's --bot-logs and the replay being written (paths in targets.txt)."""
from hostile import *
names = [os.path.basename(p) for p in targets()]
for path in targets():
    try:
        data = open(path, "rb").read(200)
        escaped("read %s: %r" % (path, data))
    except OSError as e:
        held("%s: %s" % (path, errno.errorcode.get(e.errno)))
for top in ["/tmp", "/work", "/root", "/home"]:
    if os.path.isdir(top):
        for root, dirs, files in os.walk(top):
            for f in files:
                if f.endswith((".stderr", ".input")) or f in names:
                    escaped("found " + os.path.join(root, f))

pass_forever()
