"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Reading a 0600 root file beside it and /etc/shadow."""
from hostile import *
for path in [os.path.join(HERE, "secret"), "/etc/shadow"]:
    try:
        escaped("read %s: %r" % (path, open(path).read()))
    except OSError as e:
        held("%s: %s" % (path, errno.errorcode.get(e.errno)))

pass_forever()
