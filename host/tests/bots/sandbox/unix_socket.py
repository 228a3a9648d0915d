"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Connecting to a unix socket outside /tmp (its path in targets.txt)."""
from hostile import *
for path in targets():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        escaped("connected to " + path)
    except OSError as e:
        held("connect %s: %s" % (path, errno.errorcode.get(e.errno)))

pass_forever()
