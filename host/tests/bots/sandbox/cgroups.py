"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Leaving its cgroups: /sys, or a cgroup hierarchy mounted by itself."""
from hostile import *
if os.path.exists("/sys"):
    escaped("/sys is there: " + " ".join(os.listdir("/sys")))
else:
    held("no /sys")
os.makedirs("/tmp/cg", exist_ok=True)
if libc.mount(b"cgroup", b"/tmp/cg", b"cgroup", 0, b"cpu") == 0:
    escaped("mounted the cpu cgroup hierarchy: " + " ".join(os.listdir("/tmp/cg")))
else:
    held("mount cgroup: " + err())
for line in open("/proc/self/cgroup"):
    say("in", line.strip())

pass_forever()
