#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a stations input in which every line names a different station.

`rowscan generate measurements --rows N --stations N` repeats names (200,000 rows give about 126,000
distinct ones), so the worst case for the station table, every name new, is written here instead:

    scripts/distinct_stations.py --stations 200000 -o FILE [--seed S] [--name-bytes 12-44]

Line i is `NAME;T`, where NAME is 12 to 44 bytes (28 on average; --name-bytes sets the range, at most
100): a base-36 form of i, which makes every name distinct, padded with letters; T is a temperature in -99.9..99.9. The lines are shuffled,
so new stations arrive in every block, in no particular key order.
"""
import argparse
import random
import string


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stations", type=int, required=True, help="distinct names, one line each")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--name-bytes", default="12-44", help="MIN-MAX bytes of a name (12 <= MIN <= MAX <= 100)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    low, high = (int(x) for x in args.name_bytes.split("-"))
    if not 12 <= low <= high <= 100:
        parser.error("--name-bytes must be MIN-MAX with 12 <= MIN <= MAX <= 100")

    rng = random.Random(args.seed)
    digits = string.digits + string.ascii_lowercase
    letters = string.ascii_letters
    lines = []
    for i in range(args.stations):
        unique = ""
        n = i
        while True:
            n, d = divmod(n, 36)
            unique = digits[d] + unique
            if n == 0:
                break
        size = low + rng.randrange(high - low + 1)
        filler = "".join(rng.choice(letters) for _ in range(size - len(unique) - 1))
        tenths = rng.randrange(-999, 1000)
        sign = "-" if tenths < 0 else ""
        lines.append(f"{filler}-{unique};{sign}{abs(tenths) // 10}.{abs(tenths) % 10}\n")
    rng.shuffle(lines)
    with open(args.output, "w", encoding="ascii", newline="") as out:
        out.writelines(lines)


if __name__ == "__main__":
    main()
