#!/usr/bin/env python3
"""A bot that crashes mid-match: it plays through another bot (argv[2:]) for argv[1] input lines,
then dies with status 1 (its child is left for the engine to kill with the process group)."""
import os
import subprocess
import sys
import threading

limit = int(sys.argv[1])
bot = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def pump():
    for line in bot.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
for i, line in enumerate(sys.stdin):
    if i >= limit:
        os._exit(1)
    bot.stdin.write(line)
    bot.stdin.flush()
