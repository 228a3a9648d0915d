#!/usr/bin/env python3
"""A bot that hangs mid-match: it plays through another bot (argv[3:]) for argv[2] input lines,
then creates a file `hung.<pid>` in the folder argv[1] and stops answering (it reads on, so that
the engine is never blocked writing to it, and waits until it is killed)."""
import os
import subprocess
import sys
import threading

folder, limit = sys.argv[1], int(sys.argv[2])
bot = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def pump():
    for line in bot.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
for i, line in enumerate(sys.stdin):
    if i == limit:
        open(os.path.join(folder, "hung.%d" % os.getpid()), "w").close()
    if i >= limit:
        continue
    bot.stdin.write(line)
    bot.stdin.flush()
threading.Event().wait()
