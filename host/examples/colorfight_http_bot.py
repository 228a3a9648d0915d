#!/usr/bin/env python3
"""A ColorFight bot for the original server's HTTP API, as `arena serve colorfight` speaks it.

Written against the endpoints (Python 3, standard library only), not against the original client
library: POST /joingame {"name"} -> {"token","uid"}; POST /getgameinfo {"protocol":2} -> the whole
game, then {"timeAfter": T} -> the cells changed since T - 0.5 s; POST /attack and /buildbase
{"cellx","celly","token"} -> {"err_code": 0} or {"err_code": N, "err_msg": ...}.

    cargo arena serve colorfight --players 1 --bot expander --port 8000 &
    python3 host/examples/colorfight_http_bot.py http://127.0.0.1:8000/

It attacks the quickest cell next to its land (mines and empty cells first), builds a base when it
can, joins again when it is defeated while joining is open, and stops at the game's end. At the
end it prints one JSON line: what it sent and what the server answered.
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.request


class Server:
    def __init__(self, url):
        self.url = url.rstrip("/") + "/"
        self.requests = 0

    def post(self, path, data):
        self.requests += 1
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(data).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


class Bot:
    def __init__(self, server, name, rejoin):
        self.s = server
        self.name = name
        self.rejoin = rejoin
        self.token = None
        self.uid = None
        self.cells = None
        self.info = None
        self.users = []
        self.log = {"attacks": 0, "accepted": 0, "builds": 0, "joins": 0, "errors": {}}

    def join(self):
        status, d = self.s.post("joingame", {"name": self.name})
        if status != 200 or "token" not in d:
            self.count_error(d.get("err_code", status) if isinstance(d, dict) else status)
            return False
        self.token, self.uid = d["token"], d["uid"]
        self.log["joins"] += 1
        return True

    def count_error(self, code):
        key = str(code)
        self.log["errors"][key] = self.log["errors"].get(key, 0) + 1

    def refresh(self):
        if self.cells is None:
            status, d = self.s.post("getgameinfo", {"protocol": 2})
            if status != 200:
                return False
            self.cells = d["cells"]
        else:
            status, d = self.s.post("getgameinfo", {"protocol": 1, "timeAfter": self.info["time"]})
            if status != 200:
                return False
            w = d["info"]["width"]
            for c in d["cells"]:
                self.cells[c["x"] + c["y"] * w] = c
        self.info, self.users = d["info"], d["users"]
        return True

    def me(self):
        return next((u for u in self.users if u["id"] == self.uid), None)

    def cell(self, x, y):
        w, h = self.info["width"], self.info["height"]
        if 0 <= x < w and 0 <= y < h:
            return self.cells[x + y * w]
        return None

    def choose_attack(self):
        now = self.info["time"]
        best = None
        for c in self.cells:
            if c["o"] == self.uid or c["c"] == 1:
                continue
            near = [self.cell(c["x"] + dx, c["y"] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            own = sum(1 for n in near if n is not None and n["o"] == self.uid)
            if own == 0:
                continue
            if c["o"] == 0:
                take = 2.0
            else:
                age = now - c["ot"]
                take = 33.0 if age <= 0 else 30 * 2 ** (-age / 30.0) + 3
            take *= min(1, 1 - 0.25 * (own - 1))
            key = (c["ct"] == "normal", take, c["y"], c["x"])
            if best is None or key < best[0]:
                best = (key, c["x"], c["y"])
        return best

    def choose_base(self):
        for c in self.cells:
            if c["o"] == self.uid and c["b"] == "empty" and c["c"] == 0:
                return c["x"], c["y"]
        return None

    def act(self, path, x, y):
        status, d = self.s.post(path, {"cellx": x, "celly": y, "token": self.token})
        code = d.get("err_code") if isinstance(d, dict) else None
        if status != 200 or code is None:
            self.count_error(status)
            return None
        if code != 0:
            self.count_error(code)
        return code

    def play(self):
        if not self.refresh() or not self.join():
            return
        self.refresh()
        while True:
            if not self.refresh():
                time.sleep(0.05)
                continue
            now, info = self.info["time"], self.info
            if info["end_time"] and now >= info["end_time"]:
                return
            me = self.me()
            if me is None or me["dead_time"] != 0:
                # Defeated: join again while the server lets us, else watch until the end.
                if self.rejoin and (info["join_end_time"] == 0 or now < info["join_end_time"]):
                    self.join()
                time.sleep(0.05)
                continue
            acted = False
            if me["gold"] >= 60 and me["build_cd_time"] <= now and me["base_num"] < 3:
                site = self.choose_base()
                if site:
                    self.log["builds"] += 1
                    acted = self.act("buildbase", *site) is not None
            if me["cd_time"] <= now:
                target = self.choose_attack()
                if target:
                    self.log["attacks"] += 1
                    code = self.act("attack", target[1], target[2])
                    acted = True
                    if code == 0:
                        self.log["accepted"] += 1
                    elif code == 4:
                        return
            if not acted:
                time.sleep(0.02)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url", nargs="?", default="http://127.0.0.1:8000/")
    ap.add_argument("--name", default="http-bot")
    ap.add_argument("--no-rejoin", action="store_true", help="stay out once defeated")
    args = ap.parse_args()
    bot = Bot(Server(args.url), args.name, not args.no_rejoin)
    try:
        bot.play()
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        # The server went away (it stops a few seconds after the end).
        print(f"server gone: {e}", file=sys.stderr)
    me = bot.me() if bot.info else None
    out = dict(bot.log, uid=bot.uid, name=bot.name, requests=bot.s.requests,
               cell_num=me and me["cell_num"], dead=bool(me and me["dead_time"]),
               time=bot.info and bot.info["time"], end_time=bot.info and bot.info["end_time"])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
