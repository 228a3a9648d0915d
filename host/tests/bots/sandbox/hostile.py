"""What every hostile bot of host/tests/all/sandbox_attacks.rs shares: it says on stderr what its
attack got (`ESCAPED: ...` when it worked, `held: ...` when it did not), then passes every turn."""
import ctypes, errno, os, socket, sys

libc = ctypes.CDLL(None, use_errno=True)
HERE = os.path.dirname(os.path.abspath(sys.argv[0]))


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def escaped(what):
    say("ESCAPED:", what)


def held(what):
    say("held:", what)


def err():
    return errno.errorcode.get(ctypes.get_errno(), "?")


def targets():
    return open(os.path.join(HERE, "targets.txt")).read().split()


def pass_forever():
    for _ in sys.stdin:
        print("null", flush=True)
