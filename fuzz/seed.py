#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets (docs/robustness.md) into fuzz/corpus/TARGET/.

Sources: the shared log4j2 configuration corpus and pattern cases (../shared, or $L4RS_SHARED),
the repository's config-samples/, the conformance scenarios and the XML files under crates/,
and the attribute values found in all of those (schedules, filePatterns, sizes, ages, globs,
regexes, date patterns). The corpora are generated, never committed (fuzz/.gitignore).

Usage, from the repository root: python3 fuzz/seed.py
"""

import csv
import hashlib
import html
import os
import re
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / "corpus"


def shared_dir():
    candidates = [os.environ.get("L4RS_SHARED"), ROOT.parent / "shared", Path("/work/shared")]
    for candidate in candidates:
        if candidate and Path(candidate, "reference").is_dir():
            return Path(candidate)
    sys.exit("seed.py: no shared/ directory found; set L4RS_SHARED")


def add(target, data):
    """Writes one seed, named by its hash so that reruns do not duplicate it."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def attribute_values(xml, names):
    """The unescaped values of the attributes `names` in `xml`."""
    pattern = r'\b(?:%s)\s*=\s*"([^"]*)"' % "|".join(names)
    return [html.unescape(value) for value in re.findall(pattern, xml)]


def date_options(pattern):
    """The `{…}{…}` options of each `%d` in a pattern, as `pattern NUL zone`."""
    found = []
    for match in re.finditer(r"%d(?:ate)?((?:\{[^}]*\})*)", pattern):
        options = re.findall(r"\{([^}]*)\}", match.group(1))
        if options:
            found.append("\0".join(options[:2]))
    return found


def main():
    shared = shared_dir()
    xml_files = sorted((shared / "corpus" / "log4j2-configs").glob("*.xml"))
    xml_files += sorted((ROOT / "config-samples").glob("*.xml"))
    xml_files += sorted((shared / "oracle" / "scenarios").rglob("*.xml"))
    xml_files += sorted(p for p in (ROOT / "crates").rglob("*.xml") if "target" not in p.parts)

    patterns = []
    for path in xml_files:
        xml = path.read_text(encoding="utf-8", errors="replace")
        add("config_loader", xml)
        patterns += attribute_values(xml, ["pattern"])
        patterns += re.findall(r"<Pattern>([^<]*)</Pattern>", xml)
        for schedule in attribute_values(xml, ["schedule"]):
            add("cron", schedule)
        for value in attribute_values(xml, ["filePattern", "size", "maxFileSize", "age", "glob"]):
            add("rolling_values", value)
        for regex in attribute_values(xml, ["regex"]):
            add("java_regex", regex + "\0" + "Hello, world 123")
        for zone in attribute_values(xml, ["timezone"]):
            add("time_filter", "09:00:00\0" + "17:00:00\0" + zone)
        for addresses in attribute_values(xml, ["to", "cc", "bcc", "from", "replyTo"]):
            add("smtp_mail", addresses + "\0[%p] %m\0text/plain\0line one\nline two\n")

    with open(shared / "reference" / "pattern-cases.tsv", encoding="utf-8") as tsv:
        for row in csv.DictReader(tsv, delimiter="\t"):
            patterns.append(row["pattern"])

    for pattern in patterns:
        add("pattern_layout", pattern + "\0Hello, world\0alice\0")
        for options in date_options(pattern):
            add("date_pattern", options)
        for regex in re.findall(r"%replace\{.*?\}\{([^}]*)\}", pattern):
            add("java_regex", regex + "\0org.apache.logging.Foo")

    # The Jackson layouts: the escapes and folds of the conformance scenarios 490-496.
    for fields in [
        ["placed order #42 for Zo\u00eb \u2615 \U0001f600", "user", "alice", "main", "[%p|%c]%n"],
        ["ctl \x00 \x01 \x1b \x7f \x85 \xa0 \u2028 \ufeff \ufffe ]]> <&>", "k\tv", "a\nb\r", "", ""],
        ["A very long message " * 8 + "\U0001f600" * 30, "", "- k", "a<b>&'\"", "%X"],
        ["   lead and trail   ", "#k", "'x", "line\nbreak", "head"],
    ]:
        add("jackson_layouts", "\0".join(fields))
    # log4j2's bundled JsonTemplateLayout templates, each with the bundled element template.
    templates = ROOT / "crates" / "layout" / "src" / "json_template" / "templates"
    element = (templates / "StackTraceElementLayout.json").read_text(encoding="utf-8")
    for template in sorted(templates.glob("*.json")):
        add("json_template", template.read_text(encoding="utf-8") + "\0" + element
            + "\0Hello, world\0" + '{"$resolver": "level", "field": "name"}')

    # The syntaxes the shared sources rarely show.
    for cron in ["0 0 0 * * ?", "0 */5 * * * ?", "0 0 12 ? * MON-FRI", "0 15 10 L * ?",
                 "0 0 0 ? * 6L", "0 0 0 ? * 2#3 2030", "*/10 1,2,3 0-23/2 1-31 JAN-DEC ?"]:
        add("cron", cron)
    for value in ["logs/app-%d{yyyy-MM-dd}-%i.log.gz", "app-%d{yyyy-MM-dd-HH}{UTC}.%03i.zip",
                  "%d{ISO8601}%%-%index.log", "10 MB", "1,5g", "250kb", "30d", "P7DT12H",
                  "PT1M", "*.log", "**/app-*.log.{gz,zip}", "[!a-c]?.txt\0\x01\x02\x03"]:
        add("rolling_values", value)
    for regex in [r"(?i)^.*password=(\S+).*$", r"\p{Alpha}+[\d&&[^5]]", r"(?<name>a)\k<name>",
                  r"\Q.*\E|a{2,}+", r"(?x) a # comment"]:
        add("java_regex", regex + "\0password=secret")
    for date in ["yyyy-MM-dd HH:mm:ss.SSS", "HH:mm:ss,nnnnnn\0GMT+01:00", "ISO8601_OFFSET_DATE_TIME_HHCMM",
                 "EEE, d MMM yyyy HH:mm:ss Z\0America/New_York", "'T'hh a K k w W D F u X XX XXX"]:
        add("date_pattern", date)

    for window in ["09:00:00\0" "17:00:00\0" "UTC", "22:00:00\0" "06:00:00\0" "America/New_York",
                   "02:15:00\0" "03:00:00\0" "Australia/Lord_Howe", "24:00:00\0" "\0" "+05:30",
                   "12:00:00\0" "12:00:00\0" "GMT-02:30", "9:00:00\0" "10:00\0" "UT+1",
                   "00:00:00\0" "23:59:59\0" "-01:02:03"]:
        add("time_filter", window)

    for mail in ["a@example.com, B <b@example.com>\0subject \u00e9\0text/plain\0caf\u00e9 = \n",
                 "\"Doe, Jane\" <j@x.org>, (note) k@x.org\0line\nBcc: x@y.org\0text/html; charset=UTF-8\0" + "x" * 1200,
                 "z@x.org\0\u20ac\u20ac\u20ac\0application/json; charset=UTF-8\0{\"m\":\"\u00fc\"}\n",
                 "y@x.org\0s\0text/plain; charset=UTF-16\0trailing space \r\n.dot\r"]:
        add("smtp_mail", mail)

    for arbiter in ["prod & !dev\0prod,eu\0/dev/null\0true", "(eu | us) & !test\0us\0script.groovy\0groovy",
                    "a & b | c\0a\0file:///etc/hostname\0JavaScript", "dev, staging\0staging\0https://x/y.js\0",
                    "!(a | b\0c\0\0(", "default\0default\0/\0bsh"]:
        add("arbiters_and_scripts", arbiter)

    # The JDBC appender's connection strings and statements.
    for jdbc in ["jdbc:sqlite:/tmp/logs.db?journal_mode=WAL&busy_timeout=50\0\0\0insert into t (a,b) values (?,'?')",
                 "jdbc:postgresql://h1:5432,[::1]:6543/db%20x?user=u&password=secret-value&sslmode=disable\0alice\0"
                 "secret-value\0insert into \"t?\" values (?, $$?$$, ?? , ?) -- ?\n/* ? */",
                 "jdbc:h2:mem:x\0\0\0", "postgres://u:p@h/d?password=hunter2hunter2\0\0\0$1 ?",
                 "jdbc:postgresql:db?connectTimeout=0&socketTimeout=3\0\0\0'it''s' ?",
                 "jdbc:postgresql://h:x/d\0\0\0$a$ ? $a$ ?"]:
        add("jdbc_statements", jdbc)

    for pairs in ['{"configs": {"user": ["alice", "bob"], "tenant": ["t9"]}, "other": 1}',
                  '{"configs": {"id": [7, 8.5, true, null]}}', '{"configs": {}}', 'null', '[1]',
                  '{"configs": {"user": "alice"}}', '{"configs": null}']:
        add("context_map_file", pairs)

    # The Http appender's URLs (those of the status scenario 500 among them) and responses.
    urls = ["http://127.0.0.1:8080/logs?x=1#f", "HTTPS://[::1]:443", "http://", "http:x",
            "not a url", "foo://x/y", "http://h:99999999999/x", "http://h:12a/x", "url:http://u:p@h/"]
    responses = [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                 b"HTTP/1.1 500 Server Error\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nerror",
                 b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
                 b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n",
                 b"HTTP/1.0 200 OK\r\n\r\nto the end", b"HTTP/1.1 302 Found\r\nConnection: close\r\n\r\n"]
    for url in urls:
        for method, response in zip(["POST", "HEAD", "PUT", "POST", "GET", "POST"], responses):
            add("http_parsers", url.encode() + b"\0" + method.encode() + b"\0" + response)

    for target in sorted(p.name for p in CORPUS.iterdir()):
        print(f"{target}: {len(list((CORPUS / target).iterdir()))} seeds")


if __name__ == "__main__":
    main()
