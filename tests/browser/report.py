#!/usr/bin/env python3
"""The tournament report in a real browser (`cargo xtask test` runs it; Debian's chromium).

A small Tower Defense tournament, one entrant named `<script>...`, with `--replays` and
`--report`; headless chromium (viewer.py's DevTools pipe) opens the page: no console error or
exception, no script on the page (the name is text), the rating plot has a solid and a dashed path
per bot, every replay link opens a file, and nothing was requested but the page. `--screenshot
PNG` saves the page as it looks (1000 px wide; docs/tournaments.md shows one).

usage: report.py [ARENA] [WORKDIR] [--chromium PATH] [--screenshot PNG] [--report HTML]
"""
import argparse
import base64
import os
import sys

from viewer import Browser, run

BOTS = ["strong", "random", "army"]
EVIL = "<script>alert(1)</script>"


def tournament(arena, work):
    """The report's path, after a tournament that keeps its replays."""
    report = os.path.join(work, "report", "report.html")
    names = ["strong", EVIL, "army"]
    cmd = [arena, "tournament", "tower-defense", "--seed", "3", "--quiet", "--games", "2",
           "--replays", os.path.join(work, "replays"), "--report", report]
    for b, n in zip(BOTS, names):
        cmd += ["--bot", b, "--name", n]
    run(cmd)
    return report


def errors(browser):
    """Console errors, exceptions and log errors (a CSP violation is one) so far."""
    out = []
    for e in browser.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            out.append(p["exceptionDetails"].get("text", "an exception"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
            out.append(str(p.get("args")))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            out.append(p["entry"].get("text", ""))
    return out


def screenshot(browser, path):
    height = browser.eval("document.documentElement.scrollHeight")
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": 1000, "height": min(height, 1400), "deviceScaleFactor": 1,
                  "mobile": False})
    shot = browser.call("Page.captureScreenshot", {"format": "png"})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def check(browser, report, bots, evil):
    failures = []
    url = "file://" + os.path.abspath(report)
    browser.events.clear()
    browser.call("Page.navigate", {"url": url})
    browser.wait("document.readyState === 'complete' && !!document.getElementById('matches')")
    for e in errors(browser):
        failures.append(f"the page logged an error: {e}")
    if browser.eval("document.scripts.length") != 0:
        failures.append("the page has a script element (a name was not escaped?)")
    if evil and EVIL not in browser.eval("document.getElementById('standings').innerText"):
        failures.append("the bot named with a script tag is not shown as text")
    for kind in ["mu", "cons"]:
        n = browser.eval(f"document.querySelectorAll('svg#ratings path.{kind}').length")
        if n != bots:
            failures.append(f"the rating plot has {n} paths of class {kind}, not one per bot ({bots})")
    empty = browser.eval("[...document.querySelectorAll('svg#ratings path')]"
                         ".filter(p => p.getTotalLength() < 1).length")
    if empty:
        failures.append(f"{empty} rating paths are empty")
    hrefs = browser.eval("[...document.querySelectorAll('a.replay')].map(a => a.href)")
    missing = [h for h in hrefs if not os.path.isfile(h[len("file://"):])]
    if not hrefs or missing:
        failures.append(f"replay links: {len(hrefs)}, to no file: {missing[:3]}")
    others = [u for u in browser.requests() if u.split("#")[0] != url]
    if others:
        failures.append(f"the page loaded {others}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    # `cargo xtask test` runs it from the workspace root, after `cargo test` built the binary.
    ap.add_argument("arena", nargs="?", default="target/debug/arena")
    ap.add_argument("work", nargs="?", default="target/xtask-report")
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--screenshot")
    ap.add_argument("--report", help="check this report instead of playing a tournament "
                                     "(its bots: --bots)")
    ap.add_argument("--bots", type=int, default=len(BOTS))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    report = a.report or tournament(a.arena, a.work)
    browser = Browser(a.chromium, os.path.join(a.work, "profile"))
    try:
        browser.open_tab()
        browser.call("Log.enable")
        failures = check(browser, report, a.bots, evil=not a.report)
        if a.screenshot:
            screenshot(browser, a.screenshot)
    finally:
        browser.close()
    for f in failures:
        print("FAIL", f)
    size = os.path.getsize(report)
    print(f"report in the browser: {size / 1e3:.0f} KB, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
