#!/usr/bin/env python3
"""The device profile's table in docs/MODEL.md 7.3, from include/gpumem/profile_fields.def (the one table).

usage: profile_fields_md.py            print the table (markdown)
       profile_fields_md.py --check DOC   exit 1 when DOC's table between the markers differs
       profile_fields_md.py --write DOC   rewrite DOC's table between the markers
Markers: '<!-- profile fields: scripts/profile_fields_md.py -->' and '<!-- end of profile fields -->'.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEF = os.path.join(HERE, "..", "include", "gpumem", "profile_fields.def")
BEGIN = "<!-- profile fields: scripts/profile_fields_md.py -->"
END = "<!-- end of profile fields -->"
NEED = {"REQ": "required", "OPT": "optional: absent = not measured, named", "ATTR": "optional",
        "INFO": "information"}


def rows():
    text = open(DEF).read()
    body = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"GM_PROFILE_FIELD\((.*?)\)\s*$", body, flags=re.S | re.M):
        args = re.findall(r'"(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*|[^,\s][^,]*', m.group(1))
        args = [a.strip() for a in args]
        strs = [re.sub(r'"\s*"', "", a).strip('"') if a.startswith('"') else a for a in args]
        yield dict(name=strs[0], unit=strs[2], lo=strs[3], hi=strs[4], need=strs[5], source=strs[6],
                   meaning=strs[7])


def table():
    out = [BEGIN, "", "| field | unit | valid range | need | measured by | meaning |",
           "|-------|------|-------------|------|-------------|---------|"]
    for r in rows():
        out.append("| `%s` | %s | %s .. %s | %s | %s | %s |" % (r["name"], r["unit"], r["lo"], r["hi"],
                                                             NEED[r["need"]], r["source"], r["meaning"]))
    out += ["", END]
    return "\n".join(out)


def main():
    if len(sys.argv) == 1:
        print(table())
        return 0
    mode, doc = sys.argv[1], sys.argv[2]
    s = open(doc).read()
    if BEGIN not in s or END not in s:
        print("%s: no profile-fields markers" % doc)
        return 1
    a, b = s.index(BEGIN), s.index(END) + len(END)
    if mode == "--check":
        if s[a:b] != table():
            print("%s: the profile table differs from include/gpumem/profile_fields.def; run "
                  "scripts/profile_fields_md.py --write %s" % (doc, doc))
            return 1
        print("ok: %s's profile table is the .def's" % doc)
        return 0
    open(doc, "w").write(s[:a] + table() + s[b:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
