#!/usr/bin/env python3
"""Prints a module's public API, one declaration a line, sorted, from the symbol graphs that
`swift package dump-symbol-graph` writes: what scripts/api-check compares with its baseline.

    scripts/api_surface.py SYMBOLGRAPH_FOLDER MODULE

A line is the declaration's path, a tab, and its declaration as the compiler prints it; a
conformance is `PATH<TAB>: PROTOCOL`. Members a type gets from a protocol's extensions (the
compiler's synthesized symbols) are left out: they follow from the conformance lines."""
import json
import pathlib
import sys


def declaration(symbol):
    return "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", [])).replace("\n", " ")


def main():
    folder, module = pathlib.Path(sys.argv[1]), sys.argv[2]
    graphs = [folder / f"{module}.symbols.json"] + sorted(folder.glob(f"{module}@*.symbols.json"))
    lines = set()
    for graph in graphs:
        data = json.loads(graph.read_text())
        paths = {}
        for symbol in data["symbols"]:
            precise = symbol["identifier"]["precise"]
            path = ".".join(symbol["pathComponents"])
            paths[precise] = path
            if "::SYNTHESIZED::" in precise or symbol.get("accessLevel") not in ("public", "open"):
                continue
            lines.add(f"{path}\t{declaration(symbol)}")
        for relation in data["relationships"]:
            if relation["kind"] != "conformsTo" or relation["source"] not in paths:
                continue
            target = relation.get("targetFallback") or paths.get(relation["target"]) or relation["target"]
            lines.add(f"{paths[relation['source']]}\t: {target}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
