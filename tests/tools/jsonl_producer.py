"""Writes records as another program would: JSON Lines from Python's json
module, and the same records packed with struct, for text2bin_jsonl_test.

    python3 jsonl_producer.py DIR

DIR/records.jsonl: one json.dumps object per line, for the schema
id:i32,ts:i64,x:f32,y:f64,flags:u16, with the keys in a shuffled order,
separators, line ends and blank lines varying from line to line, NaN as
null (as sluice-bin2text writes it). DIR/records.bin: the records packed,
little-endian.
"""
import json
import math
import random
import struct
import sys

FIELDS = [("id", "i"), ("ts", "q"), ("x", "f"), ("y", "d"), ("flags", "H")]
SEPARATORS = [(",", ":"), (", ", ": "), (" ,", " : "), (",\t", ":\t")]
LINE_ENDS = ["\n", "\r\n", "\n\n", "\n \t\n"]


def as_float32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def random_record(rng):
    x = as_float32(rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30))
    y = rng.choice([rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300), 0.0, -0.0, 5e-324,
                    2.2250738585072014e-308, 1.7976931348623157e308, 0.1, math.nan])
    return {"id": rng.randint(-2**31, 2**31 - 1), "ts": rng.randint(-2**63, 2**63 - 1),
            "x": rng.choice([x, 1e-45, -3.4028234663852886e38, math.nan]),
            "y": y, "flags": rng.randint(0, 65535)}


def main():
    rng = random.Random(20)
    text, packed = [], bytearray()
    for _ in range(3000):
        record = random_record(rng)
        packed += struct.pack("<" + "".join(code for _, code in FIELDS),
                              *(record[name] for name, _ in FIELDS))
        keys = [name for name, _ in FIELDS]
        rng.shuffle(keys)
        shown = {key: None if math.isnan(record[key]) else record[key] for key in keys}
        text.append(json.dumps(shown, separators=rng.choice(SEPARATORS)))
        text.append(rng.choice(LINE_ENDS))
    with open(sys.argv[1] + "/records.jsonl", "w", newline="") as out:
        out.write("".join(text))
    with open(sys.argv[1] + "/records.bin", "wb") as out:
        out.write(packed)


main()
