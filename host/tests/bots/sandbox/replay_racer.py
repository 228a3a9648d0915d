"""A hostile sandboxed Tower Defense bot (host/tests/all/signals.rs) racing the replay's last
flush: arena is to be ended by a signal while it is at work. It ignores SIGINT, SIGTERM and SIGHUP
(arena ends its bots with SIGKILL), answers every turn with `null` behind 256 KB of blanks (a
flood on stdout, each line still a valid answer under the 1 MB framing), and from its first turn
on, in a thread, tries again and again to open the replay being written (its path in
targets.txt) for writing, to truncate it and to append to it, and to reach it through the
descriptors of every process in view, and floods stderr (up to 16 MB). It says what it got on
stderr: `ESCAPED: ...` when an attempt worked, `held: ...` with the errors met otherwise, then
`racing` once the flood runs."""
from hostile import *
import signal, threading, time

for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)

replay = targets()[0]
errors = set()


def attempt():
    for mode in ("r+b", "ab", "wb"):
        try:
            with open(replay, mode) as f:
                f.write(b"GARBLED\n")
            escaped("wrote to the replay (%s)" % mode)
        except OSError as e:
            errors.add("open %s: %s" % (mode, errno.errorcode.get(e.errno)))
    try:
        os.truncate(replay, 10)
        escaped("truncated the replay")
    except OSError as e:
        errors.add("truncate: %s" % errno.errorcode.get(e.errno))
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == replay:
                    escaped("the replay is open in process %s, fd %s" % (pid, fd))
            except OSError:
                pass


def race():
    attempt()
    held("the replay %s: %s" % (replay, sorted(errors)))
    say("racing")
    flooded = 0
    while True:
        attempt()
        if flooded < 16 << 20:
            sys.stderr.write("x" * 65535 + "\n")
            flooded += 65536


threading.Thread(target=race, daemon=True).start()
pad = " " * (256 << 10)
for line in sys.stdin:
    sys.stdout.write(pad + "null\n")
    sys.stdout.flush()
