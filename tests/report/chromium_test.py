#!/usr/bin/python3
"""End-to-end test of the report of datasets/sample in headless Chromium.

usage: chromium_test.py NIOREP PNG_STATS SOURCE_DIR

1. copies datasets/sample to a temporary folder (the store cache lands there,
   not in the source tree) and runs `niorep build sample -o report.html`;
2. checks the file itself: parses as HTML, no external reference (no http(s):,
   file:, src=, <script>, <link>), inline SVGs only;
3. opens it in headless Chromium (file://, every network feature off):
   --dump-dom gives the DOM after loading, stderr with --enable-logging=stderr
   --v=0 gives console messages ("CONSOLE"); we chose the logging route over
   the DevTools protocol because a websocket client is not in the Python
   standard library. Requests: the report is served by a local stdlib HTTP
   server that records every request; the page may request report.html and
   nothing else (a file:// load logs no failed request, so it proves nothing);
4. checks every figure is present and non-empty: 7 per run plus 7 in the
   overview when there are several runs, each an inline <svg> with <path>s,
   and one hidden <svg data-nr-glyphs> holding the glyph outlines they share;
5. takes a screenshot (1280x4000) and checks it is not blank (png_stats:
   luminance stddev and share of inked pixels); then one of the report without
   its shared glyphs, which must have less ink: the figures' text is drawn
   from the shared outlines; and one of the report with each figure style
   put back inline from its rule (class nr-sN), which must be the same PNG;
   and one of the report with each shared text group (<g id="nr-tN">) put
   back in place of its <use>s, which must be the same PNG too;
6. on a phone: a copy of the report with a measuring script (the report
   itself has none) in an iframe 400 and 500 px wide must not scroll
   sideways, and no element may reach past the screen unless a box that
   scrolls it (overflow-x) holds it within the screen;
7. compares every number marked data-nr-key/data-nr-value in each run's
   article with `niorep summary --json` of the same store.

Exit 0 pass, 1 fail, 77 skip (prerequisite missing: sample, Chromium, figures).
"""
import html.parser
import http.server
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

SKIP = 77
FIGURES_PER_RUN = 7
BOOTSTRAPS = "0"   # same option for build and summary; 0 keeps the test fast


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


class Dom(html.parser.HTMLParser):
    """Collects svg counts, marked numbers per run, and external references."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.run = None
        self.svgs = []          # [paths inside] per figure <svg>
        self.svg_stack = []     # "figure" or "glyphs" per open <svg>
        self.glyph_svgs = 0     # <svg data-nr-glyphs> elements
        self.glyph_paths = 0    # <path>s inside them
        self.keys = {}          # run -> [(key, value, text)]
        self.cell = None
        self.external = []
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "link" and a.get("rel") == "icon" and a.get("href") == "data:,":
            return   # the empty icon that keeps the browser from asking for /favicon.ico
        for name, value in attrs:
            v = (value or "").strip().lower()
            if name == "src" or name == "srcset":
                self.external.append((tag, name, value))
            if name in ("href", "xlink:href") and not v.startswith("#"):
                self.external.append((tag, name, value))
            if v.startswith(("http:", "https:", "file:", "//")) or "url(http" in v or "url(//" in v:
                self.external.append((tag, name, value))
        if tag in ("script", "link", "iframe", "object", "embed", "img"):
            self.external.append((tag, "", ""))
        if tag == "article" and "data-nr-run" in a:
            self.run = a["data-nr-run"]
            self.keys.setdefault(self.run, [])
        if tag == "svg":
            kind = "glyphs" if "data-nr-glyphs" in a else "figure"
            if kind == "glyphs":
                self.glyph_svgs += 1
            else:
                self.svgs.append(0)
            self.svg_stack.append(kind)
        elif tag == "path" and self.svg_stack:
            if self.svg_stack[-1] == "glyphs":
                self.glyph_paths += 1
            else:
                self.svgs[-1] += 1
        if "data-nr-key" in a:
            self.cell = [a["data-nr-key"], a.get("data-nr-value"), ""]
            self.keys.setdefault(self.run, []).append(self.cell)

    def handle_endtag(self, tag):
        if tag == "svg" and self.svg_stack:
            self.svg_stack.pop()
        if tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[2] += data


def parse(text):
    d = Dom()
    d.feed(text)
    d.close()
    return d


def lookup(obj, key):
    for part in key.split("."):
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict) and part in obj:
            obj = obj[part]
        else:
            raise KeyError(key)
    return obj


def same_number(html_value, json_value):
    if html_value == "null" or json_value is None:
        return html_value == "null" and json_value is None
    a, b = float(html_value), float(json_value)
    if a == b:
        return True
    return math.isclose(a, b, rel_tol=2e-5, abs_tol=1e-12)   # summary prints 6 significant digits


def texts_in_place(text):
    """The report with each shared text group put back in place of its
    <use href="#nr-tN"> and their <defs> dropped: the bytes of a report
    whose text groups are not shared; None when it has none."""
    m = re.search(r'<defs>(<g id="nr-t0".*?)</defs></svg>', text, re.S)
    if not m:
        return None
    groups = {g.group(1): "<g" + g.group(2)
              for g in re.finditer(r'<g id="nr-t(\d+)"(.*?</g>)', m.group(1), re.S)}
    out = text[:m.start()] + text[m.end() - len("</svg>"):]
    return re.sub(r'<use href="#nr-t(\d+)"></use>', lambda u: groups[u.group(1)], out)


def chromium(url, *extra, timeout=180):
    profile = tempfile.mkdtemp(prefix="nr-chrome-")
    cmd = ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
           *extra, url]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return p


class Recorder(http.server.SimpleHTTPRequestHandler):
    requests = []

    def log_message(self, fmt, *args):
        Recorder.requests.append(self.path)


def serve(directory):
    handler = lambda *a, **k: Recorder(*a, directory=directory, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# Measures the report in an iframe (same origin: the recording server) and
# writes what reaches past its screen into the parent page, which
# --dump-dom prints: the page's scroll width, its width, and each element
# outside the figures that no scrolling box holds within the screen.
PHONE_SCRIPT = """<script>
window.addEventListener('load', () => {
  const w = document.documentElement.clientWidth, out = [];
  const box = el => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
                        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return p;
                      return null; };
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= w + 1) continue;
    const b = box(el);
    if (b && b.getBoundingClientRect().right <= w + 1) continue;
    const cap = el.closest('table') && el.closest('table').querySelector('caption');
    out.push(el.tagName + ' ' + (cap ? cap.textContent.slice(0, 40) : '') + ' right=' + Math.round(r.right));
  }
  const pre = parent.document.createElement('pre');
  pre.id = 'nr-phone';
  pre.textContent = document.documentElement.scrollWidth + ' ' + w + '|' + out.slice(0, 8).join('|');
  parent.document.body.appendChild(pre);
});
</script>"""


def phone_check(work, port, text, width):
    """Fails when the report scrolls sideways, or spills past the screen, at width px."""
    with open(os.path.join(work, "phone-report.html"), "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PHONE_SCRIPT + "</body>", 1))
    with open(os.path.join(work, "phone.html"), "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><body style="margin:0"><iframe src="phone-report.html" width="%d" '
                'height="800" style="border:0"></iframe></body></html>' % width)
    p = chromium("http://127.0.0.1:%d/phone.html" % port, "--dump-dom", "--window-size=1000,900",
                 "--virtual-time-budget=10000")
    m = re.search(r'<pre id="nr-phone">([^<]*)</pre>', p.stdout)
    if not m:
        fail("phone %d px: no measure from the page: %s" % (width, p.stderr[-1000:]))
    sizes, *spill = m.group(1).split("|")
    scroll, client = (int(v) for v in sizes.split())
    spill = [s for s in spill if s]
    if scroll > client or spill:
        fail("phone %d px: the page is %d px wide for a screen of %d; past the screen: %r"
             % (width, scroll, client, spill))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    niorep, png_stats, src = (os.path.abspath(a) for a in sys.argv[1:4])
    sample = os.path.join(src, "datasets", "sample")
    if not os.path.isdir(sample):
        skip("datasets/sample is not in the tree yet (branch capture)")
    if not os.path.exists("/usr/bin/chromium"):
        skip("/usr/bin/chromium missing (scripts/setup.sh installs it)")
    work = tempfile.mkdtemp(prefix="nr-report-e2e-")
    try:
        shutil.copytree(sample, os.path.join(work, "sample"), ignore=shutil.ignore_patterns(".niorep"))
        report = os.path.join(work, "report.html")
        p = subprocess.run([niorep, "build", "sample", "-o", "report.html", "--bootstraps", BOOTSTRAPS],
                           cwd=work, capture_output=True, text=True)
        if p.returncode != 0:
            fail("niorep build: exit %d: %s" % (p.returncode, p.stderr))
        text = open(report, encoding="utf-8").read()
        if "built without the renderer" in text:
            skip("niorep was built without render/: figures unavailable")
        if not text.startswith("<!DOCTYPE html>"):
            fail("report does not start with <!DOCTYPE html>")
        if work in text or src in text:
            fail("report contains an absolute path of this machine")
        static = parse(text)
        if static.external:
            fail("external references in the file: %r" % static.external[:5])
        runs = sorted(os.listdir(os.path.join(work, "sample", ".niorep")))
        runs = [r[:-4] for r in runs if r.endswith(".nio")]
        expected_svgs = FIGURES_PER_RUN * len(runs) + (FIGURES_PER_RUN if len(runs) > 1 else 0)

        server = serve(work)
        url = "http://127.0.0.1:%d/report.html" % server.server_address[1]
        p = chromium(url, "--dump-dom")
        if p.returncode != 0:
            fail("chromium --dump-dom: exit %d: %s" % (p.returncode, p.stderr[-2000:]))
        problems = [l for l in p.stderr.splitlines()
                    if "CONSOLE" in l or "ERR_" in l or "Failed to load" in l or "Refused to" in l]
        if problems:
            fail("console errors or failed requests:\n" + "\n".join(problems[:10]))
        extra = [r for r in Recorder.requests if r != "/report.html"]
        if extra or "/report.html" not in Recorder.requests:
            fail("requests other than the report itself: %r" % Recorder.requests)
        dom = parse(p.stdout)
        if len(dom.svgs) != expected_svgs:
            fail("DOM has %d inline <svg>, expected %d (%d runs)" % (len(dom.svgs), expected_svgs, len(runs)))
        empty = [i for i, n in enumerate(dom.svgs) if n == 0]
        if empty:
            fail("%d figures have no <path>: %r" % (len(empty), empty[:10]))
        if dom.glyph_svgs != 1 or dom.glyph_paths == 0:
            fail("DOM has %d <svg data-nr-glyphs> with %d paths, expected one with glyph outlines"
                 % (dom.glyph_svgs, dom.glyph_paths))
        print("ok: %d figures, all with paths, %d shared glyph outlines; no console error or failed request"
              % (len(dom.svgs), dom.glyph_paths))

        shot = os.path.join(work, "shot.png")
        p = chromium(url, "--screenshot=" + shot, "--window-size=1280,4000", "--hide-scrollbars")
        if not os.path.exists(shot):
            fail("no screenshot: %s" % p.stderr[-2000:])
        st = subprocess.run([png_stats, shot], capture_output=True, text=True)
        if st.returncode != 0:
            fail("png_stats: " + st.stderr)
        w, h, mean, sd, ink = st.stdout.split()
        if (int(w), int(h)) != (1280, 4000):
            fail("screenshot is %sx%s" % (w, h))
        if float(sd) < 10 or float(ink) < 0.01:
            fail("screenshot looks blank: stddev %s, inked share %s" % (sd, ink))
        print("ok: screenshot %sx%s, luminance stddev %s, inked share %s" % (w, h, sd, ink))

        bare = re.sub(r'<svg data-nr-glyphs.*?</svg>', "", text, count=1, flags=re.S)
        if bare == text:
            fail("no <svg data-nr-glyphs> in the file")
        with open(os.path.join(work, "bare.html"), "w", encoding="utf-8") as f:
            f.write(bare)
        bare_shot = os.path.join(work, "bare.png")
        bare_url = "http://127.0.0.1:%d/bare.html" % server.server_address[1]
        chromium(bare_url, "--screenshot=" + bare_shot, "--window-size=1280,4000", "--hide-scrollbars")
        st = subprocess.run([png_stats, bare_shot], capture_output=True, text=True)
        if st.returncode != 0:
            fail("png_stats: " + st.stderr)
        bare_ink = float(st.stdout.split()[4])
        if not bare_ink < float(ink):
            fail("the report without its shared glyphs has as much ink (%s) as with them (%s): "
                 "the figures do not draw their text from them" % (bare_ink, ink))
        print("ok: without the shared glyphs the inked share falls from %s to %s" % (ink, bare_ink))

        rules = dict(re.findall(r'\.nr-s(\d+)\{([^}<]*)\}', text))
        if not rules:
            fail("no shared style rule (.nr-sN{...}) in the file")
        inline = re.sub(r'class="nr-s(\d+)"', lambda m: 'style="%s"' % rules[m.group(1)], text)
        def paints_the_same(name, html):
            """Whether html, served as NAME.html, gives the report's screenshot byte for byte."""
            with open(os.path.join(work, name + ".html"), "w", encoding="utf-8") as f:
                f.write(html)
            other_shot = os.path.join(work, name + ".png")
            url = "http://127.0.0.1:%d/%s.html" % (server.server_address[1], name)
            chromium(url, "--screenshot=" + other_shot, "--window-size=1280,4000", "--hide-scrollbars")
            with open(shot, "rb") as a, open(other_shot, "rb") as b:
                return a.read() == b.read()

        if not paints_the_same("inline", inline):
            fail("the report with its figures' styles inline again paints differently")
        print("ok: %d shared styles; with them inline again the screenshot is the same bytes" % len(rules))

        placed = texts_in_place(text)
        if placed is None:
            fail("no shared text group (<g id=\"nr-t0\">) in the file")
        if "#nr-t" in placed or len(placed) <= len(text):
            fail("the text groups put back in place leave a reference or are not longer")
        if not paints_the_same("placed", placed):
            fail("the report with its text groups back in place paints differently")
        print("ok: %d shared text groups, %d uses; back in place the screenshot is the same bytes"
              % (text.count('<g id="nr-t'), text.count('<use href="#nr-t')))
        for width in (400, 500):
            phone_check(work, server.server_address[1], text, width)
        server.shutdown()
        print("ok: at 400 and 500 px the page does not scroll sideways and every table scrolls in its box")

        compared = 0
        for run in runs:
            marked = dom.keys.get(run)
            if not marked:
                fail("run %s: no data-nr-key number in its article" % run)
            store = os.path.join(work, "sample", ".niorep", run + ".nio")
            p = subprocess.run([niorep, "summary", store, "--json", "--bootstraps", BOOTSTRAPS],
                               capture_output=True, text=True)
            if p.returncode != 0:
                fail("niorep summary %s: %s" % (run, p.stderr))
            summary = json.loads(p.stdout)
            # every reference workload marks its epochs (niorep_hook.mark)
            if summary["marks"]["by_name"].get("epoch", 0) < 1:
                fail("run %s: no epoch mark in summary --json: %s" % (run, summary["marks"]))
            for key, value, shown in marked:
                try:
                    want = lookup(summary, key)
                except (KeyError, IndexError, ValueError):
                    fail("run %s: %s is not in summary --json" % (run, key))
                if not same_number(value, want):
                    fail("run %s: %s is %s in the report (shown \"%s\"), %r in summary --json"
                         % (run, key, value, shown.strip(), want))
                if not shown.strip():
                    fail("run %s: %s has no visible text" % (run, key))
                compared += 1
        print("ok: %d key numbers of %d runs equal summary --json" % (compared, len(runs)))
        if text.count("Marks from the hook") != len(runs):
            fail("%d tables of marks for %d runs" % (text.count("Marks from the hook"), len(runs)))
        print("ok: every run's epochs marked and listed")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
