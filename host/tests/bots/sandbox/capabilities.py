"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Capabilities, no_new_privs, uid, seccomp: what the bot holds."""
from hostile import *
st = open("/proc/self/status").read().splitlines()
caps = [l for l in st if l.startswith(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"))]
if any(int(l.split()[1], 16) for l in caps):
    escaped("capabilities: " + " ".join(caps))
else:
    held("CapEff 0, no capabilities at all")
if not [l for l in st if l.startswith("NoNewPrivs")][0].endswith("1"):
    escaped("no_new_privs is off")
if os.getuid() == 0 or os.geteuid() == 0 or os.getgid() == 0:
    escaped("runs as root")
if [l for l in st if l.startswith("Seccomp:")][0].split()[1] != "2":
    escaped("no seccomp filter")
else:
    held("seccomp filter on")

pass_forever()
