"""What every hostile bot of host/tests/all/sandbox_attacks.rs shares: it says on stderr what its
attack got (`ESCAPED: ...` when it worked, `held: ...` when it did not), then plays on as its
game's shim (`game.py` beside it, the game's example bot, copied there by the test) plays: the
attack module knows no game, the shim no attack."""
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
    """Plays the rest of the match as the game's shim: the same process (same pid, same
    sandbox), nothing of stdin read yet."""
    sys.stderr.flush()
    shim = os.path.join(HERE, "game.py")
    os.execv(sys.executable, [sys.executable, shim])
