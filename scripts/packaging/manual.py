#!/usr/bin/env python3
"""Writes mediatool's manual page (mdoc) from the parser's own description of every command and
option (`mediatool --experimental-dump-help`, swift-argument-parser's JSON), so the page says what
--help says. It replaces the generate-manual plugin, which built every product of the package
again in its own configuration (minutes, on top of the build being installed).
  manual.py BINARY DATE > mediatool.1     DATE as mdoc's .Dd wants it, e.g. "November 23, 2026"
"""
import json
import subprocess
import sys


def text(line):
    """One line of running text: mdoc reads a leading dot or quote as a request; backslashes escape."""
    line = line.replace("\\", "\\e")
    return "\\&" + line if line.startswith((".", "'")) else line


def paragraphs(prose):
    """Prose whose empty lines separate paragraphs (an empty line is a warning in mdoc: .Pp). Lines
    indented by two spaces are examples, commands to copy: shown as they are, never filled or
    hyphenated across lines."""
    out = []
    literal = False
    for line in prose.strip("\n").split("\n"):
        example = line.startswith("  ") and line.strip()
        if example and not literal:
            out.append(".Bd -literal -offset indent")
            literal = True
        elif not example and literal:
            out.append(".Ed")
            literal = False
        if example:
            out.append(text(line.strip()))
        else:
            out.append(".Pp" if not line.strip() else text(line))
    if literal:
        out.append(".Ed")
    return out


def flag_names(argument):
    names = []
    for name in argument.get("names", []):
        dashes = "-" if name["kind"] == "long" else ""
        names.append(f"Fl {dashes}{name['name']}")
    return " , ".join(names)


def item(argument):
    if argument["kind"] == "positional":
        head = f".It Ar {argument['valueName']}" + ("..." if argument.get("isRepeating") else "")
    else:
        head = ".It " + flag_names(argument)
        if argument["kind"] == "option":
            head += f" Ar {argument['valueName']}"
    lines = [head]
    if argument.get("abstract"):
        lines.append(text(argument["abstract"]))
    if argument.get("discussion"):
        lines += paragraphs(argument["discussion"])
    return lines


def options(command):
    shown = [argument for argument in command.get("arguments", []) if argument.get("shouldDisplay", True)]
    lines = []
    for argument in shown:
        lines += item(argument)
    return lines


def subcommand(command):
    lines = [f".It Em {command['commandName']}"]
    if command.get("abstract"):
        lines.append(text(command["abstract"]))
    if command.get("discussion"):
        lines += [".Pp"] + paragraphs(command["discussion"])
    described = options(command)
    if described:
        lines += [".Bl -tag -width 6n"] + described + [".El"]
    return lines


def manual(root, date):
    name = root["commandName"]
    lines = [
        f".Dd {date}",
        f".Dt {name.upper()} 1",
        ".Os Debian",
        ".Sh NAME",
        f".Nm {name}",
        f".Nd {text(root.get('abstract', ''))}",
        ".Sh SYNOPSIS",
        ".Nm",
        ".Ar subcommand",
        ".Op Ar options",
        ".Sh DESCRIPTION",
    ]
    if root.get("discussion"):
        lines += paragraphs(root["discussion"])
    lines.append(".Bl -tag -width 6n")
    lines += options(root)
    for command in root.get("subcommands", []):
        if command.get("shouldDisplay", True) and command["commandName"] != "help":
            lines += subcommand(command)
    lines.append(".El")
    return "\n".join(lines) + "\n"


def main():
    binary, date = sys.argv[1], sys.argv[2]
    described = subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, timeout=60).stdout
    sys.stdout.write(manual(json.loads(described)["command"], date))


if __name__ == "__main__":
    main()
