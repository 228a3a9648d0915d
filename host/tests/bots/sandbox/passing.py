"""A sandboxed bot that attacks nothing and plays as its game's shim: the honest seat's match
against it is the baseline of host/tests/all/sandbox_attacks.rs."""
from hostile import *

pass_forever()
