#!/usr/bin/env python3
"""core/replay's rooms include only what core/replay/README.md's table allows (its "may include" column), so no
include points back up. Protects: the one-way layering of the engine (plan types below the planners, planners below
the graph planner and the interpreter) and api/ staying free of LibTorch (the ASan build compiles it without).
Fails naming the file, the line and the include that breaks the table; also fails on a source file outside every
room, or a room the table does not list. Usage: test_replay_rooms.py [core/replay dir]"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "core", "replay")


def rooms_from_readme(path):
    """{room: set of rooms it may include, or None for every room}"""
    rules = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\|\s*`([a-z_]+)/`\s*\|.*\|\s*([^|]+?)\s*\|\s*$", line)
        if not m:
            continue
        room, allowed = m.group(1), m.group(2)
        if allowed.startswith("every room"):
            rules[room] = None
        elif allowed.startswith("nothing"):
            rules[room] = set()
        else:
            rules[room] = {w.strip() for w in allowed.split(",")}
    return rules


def main():
    rules = rooms_from_readme(os.path.join(ROOT, "README.md"))
    if not rules:
        print("FAIL: no room table in core/replay/README.md")
        return 1
    failures = []
    for room, allowed in rules.items():
        for other in allowed or ():
            if other not in rules:
                failures.append(f"README.md: room {room}/ may include '{other}', which is no room")
    for entry in sorted(os.listdir(ROOT)):
        path = os.path.join(ROOT, entry)
        if os.path.isfile(path) and entry.endswith((".h", ".cpp")):
            failures.append(f"{entry}: a source file outside every room")
        if os.path.isdir(path) and entry not in rules:
            failures.append(f"{entry}/: a room core/replay/README.md does not list")
    checked = 0
    for room, allowed in rules.items():
        folder = os.path.join(ROOT, room)
        if not os.path.isdir(folder):
            failures.append(f"{room}/: listed in README.md but not there")
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".h", ".cpp")):
                continue
            checked += 1
            for no, line in enumerate(open(os.path.join(folder, name), encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s*"replay/([a-z_]+)/', line)
                if m and m.group(1) != room and allowed is not None and m.group(1) not in allowed:
                    failures.append(f"{room}/{name}:{no}: includes {m.group(1)}/, which {room}/ may not ({line.strip()})")
                if room == "api" and re.match(r"\s*#\s*include\s*<(ATen|c10|torch)/", line):
                    failures.append(f"{room}/{name}:{no}: api/ includes LibTorch ({line.strip()})")
    for f in failures:
        print("FAIL:", f)
    print(f"{checked} files in {len(rules)} rooms checked, {len(failures)} violation(s)")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
