"""Checks sluice's escaping writers with Python's own parsers.

usage: escape_check.py xml|csv|json OUTPUT INPUTS
INPUTS holds one original input per line: "x" and its bytes in hex. OUTPUT is what the
test wrote: an XML document <doc><e a="..">..</e>...</doc>, CSV rows
"index,field,end", or one JSON string per line. Exits 1 naming the first
input that does not read back as expected.
"""
import csv
import json
import sys
import xml.etree.ElementTree as ElementTree


def xml_allowed(ch):
    code = ord(ch)
    return code in (9, 10, 13) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or code >= 0x10000


def expected_text(raw, xml):
    text = raw.decode("utf-8", errors="replace")
    if xml:
        text = "".join(ch if xml_allowed(ch) else "\ufffd" for ch in text)
    return text


def read_xml(path):
    got = []
    for element in ElementTree.parse(path).getroot():
        got.append((element.get("a"), element.text or ""))
    return got


def check(kind, output, inputs):
    if kind == "xml":
        got = read_xml(output)
        want = [(expected_text(raw, True), expected_text(raw, True)) for raw in inputs]
    elif kind == "json":
        with open(output, encoding="utf-8") as f:
            got = [json.loads(line) for line in f.read().split("\n")[:-1]]
        want = [expected_text(raw, False) for raw in inputs]
    else:
        with open(output, newline="", encoding="latin-1") as f:
            got = [row for row in csv.reader(f)]
        want = [[str(i), raw.decode("latin-1"), "end"] for i, raw in enumerate(inputs)]
    if len(got) != len(want):
        print(f"{len(got)} records read, {len(want)} written")
        return 1
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print(f"input {i} ({inputs[i]!r}): read back {g!r}, expected {w!r}")
            return 1
    return 0


def main():
    kind, output, inputs_path = sys.argv[1:4]
    with open(inputs_path) as f:
        inputs = [bytes.fromhex(line[1:]) for line in f.read().split("\n")[:-1]]
    return check(kind, output, inputs)


if __name__ == "__main__":
    sys.exit(main())
