"""Random tables through the real python-tabulate, for tests/it/tabulate_python.rs.

Usage: cases.py OUT.json [COUNT]. Writes [[headers, colalign, rows, expected], ...],
where expected is tabulate(rows, headers=headers, colalign=colalign,
tablefmt="github"), with wcwidth hidden as nvbench_compare.py runs it in the
conformance corpus. Exits with 3 when tabulate 0.10.0 cannot be imported
(other versions type and pad some cells differently).
"""
import json
import random
import sys

sys.modules["wcwidth"] = None
try:
    import tabulate
except ImportError:
    sys.exit(3)
if tabulate.__version__ != "0.10.0":
    sys.exit(3)

# Cells that exercise every typing, formatting and measuring rule: numbers
# of every kind, colour codes (CSI and OSC 8 links), line breaks, separators,
# non-ASCII digits and spaces, and the shapes nvbench-compare's tables use.
PIECES = [
    "", " ", "12", "007", "1.5", "-3.25", "1e+05", "1,000", "1,234.5", "True", "False",
    "inf", "nan", "abc", "\x1b[31m05\x1b[0m", "\x1b[1m\x1b[31m05\x1b[0m",
    "\x1b[34mSAME\x1b[39m", "\x1b[32m1.5\x1b[39m", "a\nb", "x\r\ny", "  pad  ", "\u00e9",
    "\u0661\u0662", "1_000", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    "3.881   [-0.024, +0.005] us", ">= +3.3%", "\x7f", "0.0001", "16777216", "  42 ",
    "a\\b", "\x1b[90m12\x1b[39m", "2^16", "1.000", "0.811", "\u3000", "x\x0by",
]


def cell(rng):
    text = rng.choice(PIECES)
    return text + rng.choice(PIECES) if rng.randrange(8) == 0 else text


def case(rng):
    cols = rng.randrange(5)
    headers = [] if rng.randrange(4) == 0 else [cell(rng) for _ in range(rng.randrange(cols + 3))]
    aligns = [rng.choice(["left", "center", "right"]) for _ in range(rng.randrange(cols + 2))]
    rows = []
    for _ in range(rng.randrange(6)):
        if rng.randrange(10) == 0:
            rows.append(["\x01"])
            continue
        width = rng.randrange(cols + 2) if rng.randrange(5) == 0 else cols
        rows.append([cell(rng) for _ in range(width)])
    expected = tabulate.tabulate(rows, headers=headers, colalign=aligns, tablefmt="github")
    return [headers, aligns, rows, expected]


def main():
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    rng = random.Random(20261201)
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump([case(rng) for _ in range(count)], out)


main()
