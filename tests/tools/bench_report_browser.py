#!/usr/bin/env python3
"""sluice-bench's HTML report in a real browser, run by ctest as

    bench_report_browser.py <sluice-bench> <work directory>

Runs a tiny bench (two scenarios, four tables), renders its --report page
in headless Chromium, and checks that the screenshot is not blank (more
colours than a blank page's, among them the colour of sluice's bars) and
that the page's DOM has one chart per table of the JSON report, titled
with its table's title and with a bar per method that posted a figure.
Exits 77 (ctest's SKIP_RETURN_CODE) with the reason when Chromium is
absent. The PNG is decoded here with zlib and struct: no imaging library.
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
SLUICE_BAR = (0xE8, 0x59, 0x0C)  # .sluice's fill in bench/core/svg_chart.cpp


def chromium():
    """The browser: $SLUICE_TEST_CHROMIUM if set, else chromium on PATH or in
    /usr/bin; None if it is not there."""
    named = os.environ.get("SLUICE_TEST_CHROMIUM")
    if named is not None:
        return named if os.access(named, os.X_OK) else None
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None)


def browse(browser, work, page, *what):
    """Runs headless Chromium on file `page` with a fresh profile; its stdout."""
    profile = tempfile.mkdtemp(prefix="profile-", dir=work)
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + profile, *what, "file://" + page]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    if done.returncode != 0:
        sys.exit("chromium exited with %d:\n%s" % (done.returncode, done.stderr.decode()))
    return done.stdout.decode()


def screenshot(browser, work, page, png):
    browse(browser, work, page, "--screenshot=" + png, "--window-size=1200,3000")
    with open(png, "rb") as f:
        return f.read()


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(kind, line, prior, bpp):
    """One scanline's bytes, PNG filter `kind` undone against `prior`."""
    out = bytearray(line)
    if kind == 0:
        return out
    if kind == 2:
        return bytearray((x + y) & 255 for x, y in zip(line, prior))
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        up, corner = prior[i], prior[i - bpp] if i >= bpp else 0
        add = {1: left, 3: (left + up) // 2, 4: paeth(left, up, corner)}[kind]
        out[i] = (out[i] + add) & 255
    return out


def colours(png):
    """The set of (r, g, b) colours of an 8-bit RGB or RGBA PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("the screenshot is not a PNG file")
    at, data, header = 8, b"", None
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + size]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        at += 12 + size
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        sys.exit("unexpected PNG form: depth %d, colour type %d, interlace %d"
                 % (depth, colour_type, interlace))
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(data), width * bpp
    seen, prior = set(), bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        prior = unfilter(raw[start], raw[start + 1:start + 1 + stride], prior, bpp)
        seen.update(zip(prior[0::bpp], prior[1::bpp], prior[2::bpp]))
    return seen


class charts_in(html.parser.HTMLParser):
    """Each <svg class="chart"> of a page: its <title> and its bars' count."""

    def __init__(self, page):
        super().__init__()
        self.charts, self.depth, self.in_title = [], 0, False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "chart" in attrs.get("class", "").split():
            self.charts.append({"title": None, "bars": 0})
            self.depth = 1
        elif self.depth:
            self.depth += 1
            # the <svg>'s own <title>: a child of it, before the bars' ones
            self.in_title = tag == "title" and self.depth == 2
            if tag == "rect" and "bar" in attrs.get("class", "").split():
                self.charts[-1]["bars"] += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
        self.in_title = False

    def handle_data(self, data):
        if self.in_title and self.charts[-1]["title"] is None:
            self.charts[-1]["title"] = data


def main():
    bench, work = sys.argv[1], sys.argv[2]
    browser = chromium()
    if not browser:
        print("SKIP: Chromium not found (%s): apt-get install chromium to run this test"
              % os.environ.get("SLUICE_TEST_CHROMIUM", "chromium on PATH, /usr/bin/chromium"))
        return SKIP
    os.makedirs(work, exist_ok=True)
    work = tempfile.mkdtemp(prefix="report-browser-", dir=work)
    page, report = os.path.join(work, "report.html"), os.path.join(work, "report.json")
    run = subprocess.run([bench, "--dir", work, "--scenario", "bytes,gather", "--size", "256K",
                          "--repeat", "2", "--report", page, "--json", report],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=240)
    if run.returncode != 0:
        sys.exit("sluice-bench exited with %d: %s" % (run.returncode, run.stderr.decode()))
    with open(report) as f:
        cases = json.load(f)["cases"]

    problems = []
    blank = os.path.join(work, "blank.html")
    with open(blank, "w") as f:
        f.write("<!DOCTYPE html><html><body></body></html>\n")
    blank_colours = colours(screenshot(browser, work, blank, os.path.join(work, "blank.png")))
    shown = colours(screenshot(browser, work, page, os.path.join(work, "report.png")))
    print("screenshot: %d colours (a blank page: %d)" % (len(shown), len(blank_colours)))
    if len(shown) <= max(len(blank_colours), 1):
        problems.append("the screenshot is blank: %d colour(s)" % len(shown))
    if SLUICE_BAR not in shown:
        problems.append("no pixel of sluice's bar colour #%02x%02x%02x" % SLUICE_BAR)

    charts = charts_in(browse(browser, work, page, "--dump-dom")).charts
    print("DOM: %d charts for %d tables" % (len(charts), len(cases)))
    expected = [{"title": c["title"],
                 "bars": sum(m["median_mb_per_s"] is not None for m in c["methods"])}
                for c in cases]
    if charts != expected:
        problems.append("the charts in the DOM are %s; the JSON report's tables say %s"
                        % (charts, expected))
    for problem in problems:
        print("FAILED: " + problem)
    if not problems:
        shutil.rmtree(work)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
