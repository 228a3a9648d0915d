"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): The host's command lines in /proc (arena's --seed among them)."""
from hostile import *
seen = 0
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        cmd = open("/proc/%s/cmdline" % pid, "rb").read()
    except OSError:
        continue
    seen += 1
    if b"--seed" in cmd or b"9173" in cmd:
        escaped("a command line with the seed: %r" % cmd[:200])
held("%d processes in view" % seen)

pass_forever()
