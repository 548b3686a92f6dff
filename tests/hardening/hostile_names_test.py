#!/usr/bin/python3
"""Hostile file names end to end: a program traced with real strace
(`niorep trace`) writes and reads files named as markup, with a newline,
quotes and a comma, a backslash sequence and bytes that are not UTF-8.
Checks: the ingest keeps every name byte for byte; `niorep export` gives
valid CSV and JSON lines from which every name is recovered exactly
(docs/export-format.md); `niorep summary` (text and JSON) works; the report
of `niorep build` holds no element or attribute from a name (no <script>,
no <img>, no on* handler, parsed with html.parser) and shows the names as
text. Skips (77) when strace cannot trace here.

usage: hostile_names_test.py NIOREP HOSTILE_NAMES_PROGRAM
"""
import csv
import html.parser
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NAMES = [
    b"<script>alert(1)</script>",
    b'"><img src=x onerror=alert(1)>',
    b"new\nline.bin",
    b"bad\xff\xfe.bin",
    b'comma,"quote".bin',
    b"lit\\x41.bin",
    b"&amp;<![CDATA[x]]><!--c-->.bin",
]

failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def run(args, cwd, **kw):
    return subprocess.run(args, cwd=cwd, capture_output=True, **kw)


def unescape_export(text):
    """Inverse of the JSON string rule of docs/export-format.md: valid
    UTF-8 as is, a backslash doubled, an invalid byte as \\xNN."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] == "\\":
            out += b"\\"
            i += 2
        elif c == "\\" and text[i + 1:i + 2] == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out += c.encode("utf-8")
            i += 1
    return bytes(out)


class ReportScan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.handlers = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.handlers += [f"<{tag} {k}=...>" for k, _ in attrs if k.lower().startswith("on")]

    def handle_data(self, data):
        self.text.append(data)


def main():
    niorep, program = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not shutil.which("strace"):
        print("skip: no strace")
        return 77
    tmp = tempfile.mkdtemp(prefix="nr_hostile.")
    try:
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        # LeakSanitizer cannot stop the world of a process that strace
        # already ptraces: in the ASan build the traced program would spin.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        traced = run([niorep, "trace", "-o", "../run", "--", program], work, env=env)
        if traced.returncode != 0:
            print("skip: niorep trace failed here (ptrace not allowed?):", traced.stderr.decode(errors="replace")[-300:])
            return 77
        expected = [os.fsencode(os.path.realpath(work)) + b"/" + n for n in NAMES]

        r = run([niorep, "ingest", "run", "-o", "run.nio", "-q"], tmp)
        check(r.returncode == 0, "ingest of the hostile run")

        r = run([niorep, "export", "run.nio", "--table", "files"], tmp)
        check(r.returncode == 0, "export --format csv")
        rows = list(csv.DictReader(io.StringIO(r.stdout.decode("latin-1"), newline="")))
        csv_paths = {row["path"].encode("latin-1") for row in rows}
        check(all(len(row) == len(rows[0]) and None not in row for row in rows), "CSV rows all have the header's columns")
        for e in expected:
            check(e in csv_paths, f"CSV holds {e!r} exactly")

        r = run([niorep, "export", "run.nio", "--table", "files", "--format", "jsonl"], tmp)
        check(r.returncode == 0, "export --format jsonl")
        try:
            objs = [json.loads(line) for line in r.stdout.decode("utf-8").splitlines()]
            check(True, "JSON lines are valid UTF-8 JSON")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            objs = []
            check(False, f"JSON lines are valid UTF-8 JSON ({exc})")
        json_paths = {unescape_export(o["path"]) for o in objs}
        for e in expected:
            check(e in json_paths, f"JSON lines give back {e!r} exactly")
        check(len(objs) == len(rows), "CSV and JSON lines have the same rows")

        r = run([niorep, "summary", "run.nio"], tmp)
        check(r.returncode == 0, "summary")
        r = run([niorep, "summary", "--json", "run.nio"], tmp)
        check(r.returncode == 0, "summary --json")
        try:
            json.loads(r.stdout.decode("utf-8"))
            check(True, "summary --json is valid UTF-8 JSON")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            check(False, f"summary --json is valid UTF-8 JSON ({exc})")

        r = run([niorep, "figures", "run.nio", "-o", "figs", "--format", "svg", "--bootstraps", "10"], tmp)
        check(r.returncode == 0, "figures")
        for svg in sorted(os.listdir(os.path.join(tmp, "figs"))) if r.returncode == 0 else []:
            if svg.endswith(".svg"):
                try:
                    root = ET.parse(os.path.join(tmp, "figs", svg)).getroot()
                    bad = [e.tag for e in root.iter() if e.tag.split("}")[-1] in ("script", "foreignObject", "img")]
                    check(not bad, f"{svg} parses as XML and has no script/img/foreignObject element")
                except ET.ParseError as exc:
                    check(False, f"{svg} parses as XML ({exc})")

        r = run([niorep, "build", "run.nio", "-o", "report.html", "--bootstraps", "10"], tmp)
        check(r.returncode == 0, "build the report")
        if r.returncode == 0:
            with open(os.path.join(tmp, "report.html"), "rb") as f:
                page = f.read().decode("utf-8")
            scan = ReportScan()
            scan.feed(page)
            check("script" not in scan.tags, "the report has no <script> element")
            check("img" not in scan.tags, "the report has no <img> element")
            check(not scan.handlers, f"the report has no on* attribute {scan.handlers[:3]}")
            text = "".join(scan.text)
            for name in (b"<script>alert(1)</script>", b'"><img src=x onerror=alert(1)>',
                         b"&amp;<![CDATA[x]]><!--c-->.bin", b'comma,"quote".bin'):
                check(name.decode() in text, f"the report shows {name!r} as text")
            check("bad\\xff\\xfe.bin" in text.lower(), "the report shows the invalid bytes as \\xNN text")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
