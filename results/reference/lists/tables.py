"""What paired.py, grid.py and worst.py share: a flag of the command line, a CSV table that may
be gzipped, and a markdown table written to a file and standard output. Standard library only."""
import csv, gzip, sys


def flag(args, name, default=None):
    """Takes `name VALUE` out of `args` (a list, changed in place): VALUE, or `default`."""
    if name not in args:
        return default
    i = args.index(name)
    value = args[i + 1]
    del args[i : i + 2]
    return value


def rows(path):
    """The rows of a CSV table, gzipped when its name ends in .gz."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.DictReader(f))


def emit(lines, out=None):
    """Writes the lines to `out` when given, and to standard output."""
    text = "\n".join(lines) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    sys.stdout.write(text)
