"""A hostile sandboxed bot (host/tests/all/sandbox_attacks.rs): Typing into the operator's terminal (TIOCSTI on /dev/tty and its own descriptors)."""
from hostile import *
import fcntl, termios
try:
    fd = os.open("/dev/tty", os.O_RDWR)
    fcntl.ioctl(fd, termios.TIOCSTI, b"x")
    escaped("typed into /dev/tty")
except OSError as e:
    held("/dev/tty: %s" % errno.errorcode.get(e.errno))
for fd in (0, 1, 2):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        escaped("TIOCSTI on %d" % fd)
    except OSError as e:
        held("TIOCSTI on %d: %s" % (fd, errno.errorcode.get(e.errno)))
if os.getsid(0) == os.getsid(os.getppid()) and os.getsid(0) != os.getpid():
    say("session", os.getsid(0))

pass_forever()
