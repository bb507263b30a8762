#!/usr/bin/env python3
"""results_pack.py - pack the loose text outputs of committed runs into one .tar.xz a run folder (results/ lean on disk).

Each small file costs a 4 KiB block on disk and in the device tool's copy, so the text outputs that nothing reads
by path (logs, tables, ncu and peer text, call scripts) go into `packed.tar.xz` of their run folder (the nearest
folder above them with a COMMANDS.md, else the run's top folder), their paths inside it relative to that folder.
A file stays loose when any of these holds: it is a document (*.md), a JSON document (runs, profiles: gpumem,
scripts/results_index.py and tests/harden/runfiles.sh read them, also as .json.gz), an archive already (.tar.gz,
.tgz, .xz: traces, runs), a name a script reads inside a run folder (rc.txt, gpu.txt, pairs.txt, patterns.tsv),
in a folder that a summary script reads whole (soak*, sanitize*, suggest*, fleet, latest) or a traced set's
programs/, or its path is named by a tracked file outside results/ (docs, src, scripts, tests, data; not
docs/log/, whose dated notes name paths as they were: PACKED.md says where those went), or its name is (a name
at most two files under results/ have: "model-X/, score_Y.txt"). Compressed text (.txt.gz, .csv.gz) packs too.
results/<gpu>/PACKED.md lists every archive of the folder: its files and their bytes.
Read one: `tar -xJf results/<gpu>/<run>/packed.tar.xz -C DIR` (or `tar -tJvf` to list it).
usage: scripts/results_pack.py [--dry-run]
"""
import collections
import io
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ARCHIVE = "packed.tar.xz"
LOOSE_NAMES = {"pairs.txt", "patterns.tsv"}   # rc.txt and gpu.txt: read in suggest* folders, loose whole
LOOSE_FOLDERS = ("programs",)   # a traced set's programs: kept as sources to run again
LOOSE_SUFFIXES = (".md", ".json", ".json.gz", ".tar", ".tar.gz", ".xz", ".tgz", ".bz2", ".zip")
WHOLE_FOLDERS = ("soak", "sanitize", "suggest", "fleet", "latest")


def git_files(*paths):
    return subprocess.run(["git", "-C", ROOT, "ls-files", "--", *paths], capture_output=True, text=True,
                          check=True).stdout.split()


def named_text():
    """Every tracked file outside results/, as one text: the paths it names keep their files loose."""
    out = []
    for p in git_files("."):
        if p.startswith(("results/", "docs/log/")) or not os.path.isfile(os.path.join(ROOT, p)):
            continue
        with open(os.path.join(ROOT, p), "rb") as f:
            out.append(f.read().decode("utf-8", "ignore"))
    return "\n".join(out)


def unit_of(path):
    """The run folder a packed file goes to: the nearest folder above it with a COMMANDS.md, else its top run."""
    parts = path.split("/")
    for i in range(len(parts) - 1, 2, -1):
        if os.path.exists(os.path.join(ROOT, *parts[:i], "COMMANDS.md")):
            return "/".join(parts[:i])
    return "/".join(parts[:3])


def cited(name, text):
    """Whether a file name stands as a word of text (a doc naming it beside its folder: "model-X/, score_Y.txt")."""
    return re.search(r"(?<![A-Za-z0-9_.-])%s(?![A-Za-z0-9_-])" % re.escape(name), text) is not None


def packable(path, text, rare):
    parts = path.split("/")
    if len(parts) < 4 or os.path.basename(path) == ARCHIVE:
        return False   # the files of a GPU folder itself stay where the docs find them
    if path.endswith(LOOSE_SUFFIXES) or parts[-1] in LOOSE_NAMES:
        return False
    if any(p.startswith(WHOLE_FOLDERS) or p in LOOSE_FOLDERS for p in parts[2:-1]):
        return False
    plain = parts[-1][:-3] if parts[-1].endswith(".gz") else parts[-1]   # a file gzipped in place keeps its reader
    if parts[-1] in rare and (cited(parts[-1], text) or cited(plain, text)):
        return False   # a name of at most two files under results/, named outside it: the doc means this one
    return path not in text and path[len("results/"):] not in text and "/".join(parts[2:]) not in text


def main():
    dry = "--dry-run" in sys.argv[1:]
    text = named_text()
    units, tracked = {}, git_files("results")
    names = collections.Counter(os.path.basename(p) for p in tracked)
    rare = {n for n, k in names.items() if k <= 2}
    for p in tracked:
        if os.path.isfile(os.path.join(ROOT, p)) and packable(p, text, rare):
            units.setdefault(unit_of(p), []).append(p)
    for unit, paths in sorted(units.items()):
        if len(paths) < 2 and not os.path.exists(os.path.join(ROOT, unit, ARCHIVE)):
            continue   # one file: an archive would save nothing
        arc = os.path.join(ROOT, unit, ARCHIVE)
        members = {}
        if os.path.exists(arc):   # a second pass adds to what is packed already
            with tarfile.open(arc) as t:
                members = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}
        for p in paths:
            with open(os.path.join(ROOT, p), "rb") as f:
                members[os.path.relpath(p, unit)] = f.read()
        print("%s: %d files, %d bytes" % (unit, len(members), sum(len(b) for b in members.values())))
        if dry:
            continue
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:xz", preset=9) as t:   # sorted, mtime 0: the same bytes each time
            for name in sorted(members):
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(members[name]), 0, 0o644
                t.addfile(info, io.BytesIO(members[name]))
        with open(arc + ".tmp", "wb") as f:
            f.write(buf.getvalue())
        os.replace(arc + ".tmp", arc)
        for p in paths:
            os.remove(os.path.join(ROOT, p))
    if not dry:
        write_listing()
    return 0


def write_listing():
    """results/<gpu>/PACKED.md: every packed.tar.xz under that GPU folder and the files it holds."""
    by_gpu = {}
    for dp, _, fs in os.walk(os.path.join(ROOT, "results")):
        if ARCHIVE in fs:
            unit = os.path.relpath(dp, ROOT)
            with tarfile.open(os.path.join(dp, ARCHIVE)) as t:
                members = sorted((m.name, m.size) for m in t.getmembers() if m.isfile())
            by_gpu.setdefault(unit.split("/")[1], {})[unit] = members
    for gpu, units in by_gpu.items():
        path = os.path.join(ROOT, "results", gpu, "PACKED.md")
        out = ["# Packed text outputs of this folder (scripts/results_pack.py)", "",
               "Text outputs that no doc, script or test names by path, one `%s` a run folder (4 KiB blocks: results/"
               % ARCHIVE,
               "stays small on disk and in the device tool's copy). Read one: `tar -xJf RUN/%s -C DIR`." % ARCHIVE,
               "Each file is byte for byte what the run wrote; `git log --diff-filter=D -- PATH` names the commit that packed it.",
               "",
               "| archive | files | bytes | what it holds |", "| --- | ---: | ---: | --- |"]
        for unit in sorted(units):
            names = [n for n, _ in units[unit]]
            out.append("| `%s/%s` | %d | %d | %s |" % (unit[len("results/%s/" % gpu):], ARCHIVE, len(names),
                                                     sum(b for _, b in units[unit]), ", ".join(names)))
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n")
        print("wrote %s" % os.path.relpath(path, ROOT))


if __name__ == "__main__":
    sys.exit(main())
