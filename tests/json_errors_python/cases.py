"""Malformed JSON documents and what Python's json.load says about each.

usage: cases.py OUT.json COUNT

Writes [[hex bytes, message or null], ...]: random NVBench-like documents
with random damage (bytes dropped, doubled, swapped or replaced), each read
as a text file is read (UTF-8, universal newlines), and str() of the
exception raised, or null when Python reads it.
"""

import json
import os
import random
import sys
import tempfile

PIECES = [b'{', b'}', b'[', b']', b',', b':', b'"', b'\\', b'\\u', b'\\ud83d', b'\\ude00',
          b'1', b'-', b'0', b'.', b'e', b'+', b'E', b' ', b'\n', b'\r', b'\r\n', b'\t',
          b'null', b'nul', b'true', b'tru', b'false', b'NaN', b'Infinity', b'-Infinity',
          b'\xc3\xa9', b'\xff', b'\xe2\x82', b'\x01', b'\xef\xbb\xbf', b'x', b'"a"', b'12.5e-3']


def document(rng):
    value = {
        "meta": {"version": {"json": {"string": "1.0.0"}}},
        "devices": [{"id": 0, "name": "GPU \u00e9"}],
        "benchmarks": [{"name": "b", "states": [{"name": "Device=0", "n": [1, 2.5, -3e4, None, True]}]}],
    }
    text = json.dumps(value, indent=rng.choice([None, 1, 2])).encode()
    return text


def damage(rng, text):
    data = bytearray(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(data))
        kind = rng.randint(0, 3)
        if kind == 0 and data:
            del data[at:at + rng.randint(1, 4)]
        elif kind == 1:
            data[at:at] = rng.choice(PIECES)
        elif kind == 2:
            data[at:at + 1] = rng.choice(PIECES)
        else:
            data = data[:at]
    return bytes(data)


def python_says(data, path):
    with open(path, "wb") as f:
        f.write(data)
    try:
        with open(path, "r", encoding="utf-8") as f:
            json.load(f)
    except (ValueError,) as exc:
        return str(exc)
    return None


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(20240611)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "doc.json")
        for _ in range(count):
            data = damage(rng, document(rng))
            cases.append([data.hex(), python_says(data, path)])
        for extra in [b"", b"   ", b"-", b"1" * 4301, b"-" + b"1" * 4301, b"[" + b"1" * 4300 + b"]"]:
            cases.append([extra.hex(), python_says(extra, path)])
    with open(out, "w") as f:
        json.dump(cases, f)


main()
