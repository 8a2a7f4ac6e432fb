"""Do two runs of bench/readme_numbers.py agree? Every figure of the table, as the median of each
run's alternating runs, compared; the figures more than 20 % apart are listed, exit status 1 then.

    python bench/agree.py A.json B.json [--within 0.2]
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import readme_numbers


def medians(path: str) -> dict:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    runs = data["runs"]
    out = {}
    if data.get("instructions"):         # counted once a set, and the same on any host
        out[("instructions a keypress", "callgrind")] = (data["instructions"], "{:,.0f}")
    for what, pick, script, fmt in readme_numbers.ROWS:
        if script == readme_numbers.CONDITIONS:
            continue
        for column, results in runs.items():
            values = [pick(r) for r in results]
            if values and all(v is not None for v in values):
                out[(what, column)] = (statistics.median(values), fmt)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--within", type=float, default=0.2)
    args = parser.parse_args()
    a, b = medians(args.a), medians(args.b)
    apart = []
    for key in a.keys() & b.keys():
        (x, fmt), (y, _) = a[key], b[key]
        if max(x, y) > 0 and abs(x - y) / max(x, y) > args.within:
            apart.append((key, fmt.format(x), fmt.format(y)))
    for (what, column), x, y in sorted(apart):
        print(f"{column}: {what}: {x} vs {y}")
    print(f"{len(a.keys() & b.keys()) - len(apart)} of {len(a.keys() & b.keys())} figures within "
          f"{args.within * 100:.0f} %")
    return 1 if apart else 0


if __name__ == "__main__":
    sys.exit(main())
