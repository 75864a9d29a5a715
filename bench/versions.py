"""Instructions per request of toolwright_server built from several revisions of toolwright,
in one run: `python3 versions.py REV [REV...]`, and the working tree last; ratios are to the
first revision. `--noop-middleware` adds a row: the working tree with a middleware that does
nothing (`from_fn(|call, next| next.run(call))`).
Each revision is checked out in a worktree under target/versions and its benchmark server built
there; the counts are compare.py's (callgrind, 1000 requests with 64 in flight, minus start-up,
median of three)."""

import subprocess
import sys
from pathlib import Path

import compare

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KINDS = ["echo", "add", "items", "list"]


def build(revision: str | None) -> Path:
    """The benchmark server of `revision` (None: the working tree), built in release."""
    if revision is None:
        bench = HERE
    else:
        tree = HERE / "target" / "versions" / revision
        if not tree.exists():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision], check=True)
        bench = tree / "bench"
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "toolwright_server"], cwd=bench, check=True)
    return bench / "target" / "release" / "toolwright_server"


def main() -> int:
    noop = "--noop-middleware" in sys.argv
    revisions = [a for a in sys.argv[1:] if a != "--noop-middleware"]
    commands = {revision: [str(build(revision))] for revision in revisions}
    commands["working tree"] = [str(build(None))]
    if noop:
        commands["working tree, no-op middleware"] = commands["working tree"] + ["--noop-middleware"]
    rows = {name: {kind: compare.per_request(command, kind) for kind in KINDS} for name, command in commands.items()}
    compare.print_table(
        "instructions per request (callgrind, %d requests with %d in flight, minus start-up; median of %d)"
        % (compare.N, compare.WINDOW, compare.REPEATS),
        rows, KINDS, revisions[0], lambda value: f"{value / 1000:.1f} k",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
