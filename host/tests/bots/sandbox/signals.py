"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): signals. It looks for arena
and the other seat (in /proc, then by probing every pid up to 65,536 and near the pid of the test
that ran arena, given in targets.txt) and sends SIGSTOP to each it finds (and SIGCONT a moment
later, so that a sandbox that lets it through fails the test instead of hanging it); then it
kills its parent and sends SIGKILL to every process it may signal (`kill(-1)`): that ends its
own sandbox, itself with it, and nothing else.

Run where nothing holds it (no pid namespace of its own, or as root), `kill(-1, SIGKILL)` and
killing its parent would end every process of its user on the machine, the test's among them:
there it only probes (signal 0), stops nothing, and says `ESCAPED` for what it could have done."""
from hostile import *
import signal, time

me = os.getpid()
in_view = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
# A pid namespace of its own shows a handful of processes, the first of them pid 1.
jailed = len(in_view) < 16 and os.getuid() != 0


def cmdline(pid):
    try:
        return open("/proc/%d/cmdline" % pid, "rb").read().replace(b"\0", b" ")
    except OSError:
        return b""


say("in /proc:", [(p, cmdline(p)[:60]) for p in in_view])
hint = int(targets()[0])
probe = set(range(1, 65537)) | set(range(max(1, hint - 4096), hint + 65536))
found = [p for p in sorted(probe) if p != me and libc.kill(p, 0) == 0]
held("pids it may signal: %s" % found)
if hint in found:
    escaped("may signal the test that ran arena (pid %d)" % hint)
stopped = []
for pid in found:
    line = cmdline(pid)
    # Outside a sandbox it stops nothing (the test machine's processes are not its to stop).
    if jailed and pid != 1 and libc.kill(pid, signal.SIGSTOP) == 0:
        stopped.append(pid)
    if pid not in in_view or (not jailed and (b"arena" in line or b"python" in line)):
        escaped("may stop pid %d: %r" % (pid, line[:120]))
time.sleep(1)
for pid in stopped:
    libc.kill(pid, signal.SIGCONT)
held("SIGSTOP sent to %s" % stopped)
parent = os.getppid()
if jailed:
    # Last: in its own PID namespace, its parent is the `sh` that started it, bwrap's only
    # child; killing it (or everything, kill(-1)) ends this sandbox, and only this one.
    held("kill(parent %d, SIGKILL), then kill(-1, SIGKILL)" % parent)
    libc.kill(parent, signal.SIGKILL)
    time.sleep(0.5)
    r = libc.kill(-1, signal.SIGKILL)
    time.sleep(0.5)
    held("still alive after kill(-1): %s" % ("0" if r == 0 else err()))
elif libc.kill(parent, 0) == 0:
    escaped("in view of %d processes, uid %d: kill(-1, SIGKILL) would end them" % (len(in_view), os.getuid()))
    escaped("may kill its parent (pid %d): %r" % (parent, cmdline(parent)[:120]))

pass_forever()
