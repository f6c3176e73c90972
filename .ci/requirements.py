"""Prints the requirements of pyproject.toml's extras named on the command
line, one a line, each "fasturi[x]" among them replaced by extra x's own
(pip cannot install the project's extras by its name from a requirements
file: it would look for fasturi on the index).

    python .ci/requirements.py [--build] [--deps] [--without NAME,...] EXTRA...

--build and --deps add the build requirements and the dependencies;
--without leaves out the requirements of those distributions.
"""

import argparse
import re

import tomllib

parser = argparse.ArgumentParser()
parser.add_argument("extras", nargs="*")
parser.add_argument("--build", action="store_true")
parser.add_argument("--deps", action="store_true")
parser.add_argument("--without", default="")
args = parser.parse_args()

with open("pyproject.toml", "rb") as f:
    meta = tomllib.load(f)
extras = meta["project"]["optional-dependencies"]
without = {n for n in args.without.split(",") if n}


def expand(reqs, seen):
    for req in reqs:
        m = re.fullmatch(r"fasturi\[([^\]]+)\]", req)
        if m is None:
            if re.match(r"[A-Za-z0-9_.-]+", req).group(0) not in without:
                yield req
            continue
        for name in m.group(1).split(","):
            if name not in seen:
                seen.add(name)
                yield from expand(extras[name], seen)


reqs = []
if args.build:
    reqs += meta["build-system"]["requires"]
if args.deps:
    reqs += meta["project"].get("dependencies", [])
seen = set(args.extras)
for extra in args.extras:
    reqs += list(expand(extras[extra], seen))
print("\n".join(dict.fromkeys(reqs)))
