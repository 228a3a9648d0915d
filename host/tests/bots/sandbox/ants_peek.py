"""A hostile sandboxed Ants bot (host/tests/all/sandbox_attacks.rs): it tries to read the other
seat's `.input` log (every hidden enemy ant the other seat sees) and the replay being written
(paths in targets.txt), then ends each turn without orders."""
from hostile import *

for path in targets():
    try:
        data = open(path, "rb").read(200)
        escaped("read %s: %r" % (path, data))
    except OSError as e:
        held("%s: %s" % (path, errno.errorcode.get(e.errno)))
for line in sys.stdin:
    if line.strip() in ("ready", "go"):
        print("go", flush=True)
