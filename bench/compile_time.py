"""Compile time of a crate with 200 tools, on toolwright and on rmcp 3.11, written the same way:
every tool takes its own two arguments and returns a string. Each crate is generated under
target/compile, its dependencies are built once, and then three timings are taken, each the
median of several runs: a debug rebuild after touching main.rs, a debug rebuild after editing
one tool's body, and a release rebuild after a touch. Run through run.sh, or alone with
`python3 compile_time.py [--runs N] [--no-release]`."""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from compare import print_table

HERE = Path(__file__).resolve().parent
ROOT = HERE / "target" / "compile"
TOOLS = 200


def toolwright_main() -> str:
    tools = "".join(
        f"""
/// Tool {i}: labels its value plus {i}.
#[mcp_tool]
fn tool_{i}(value: i64, label: String) -> String {{
    format!("{{label}}: {{}}", value + {i})
}}
"""
        for i in range(TOOLS)
    )
    return f"""use toolwright::prelude::*;
{tools}
fn main() -> toolwright::Result<()> {{
    Server::new("compile-time", "0").discover().serve_stdio()
}}
"""


def rmcp_main() -> str:
    structs = "".join(
        f"""
#[derive(Deserialize, schemars::JsonSchema)]
struct Tool{i}Args {{
    value: i64,
    label: String,
}}
"""
        for i in range(TOOLS)
    )
    methods = "".join(
        f"""
    #[tool(description = "Tool {i}: labels its value plus {i}.")]
    fn tool_{i}(&self, Parameters(Tool{i}Args {{ value, label }}): Parameters<Tool{i}Args>) -> String {{
        format!("{{label}}: {{}}", value + {i})
    }}
"""
        for i in range(TOOLS)
    )
    return f"""use rmcp::handler::server::wrapper::Parameters;
use rmcp::{{ServiceExt, schemars, tool, tool_router}};
use serde::Deserialize;
{structs}
#[derive(Clone)]
struct Tools;

#[tool_router(server_handler)]
impl Tools {{{methods}}}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {{
    Tools.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}}
"""


CRATES = {
    "toolwright": (
        f'toolwright = {{ path = "{HERE.parent}" }}\n',
        toolwright_main,
    ),
    "rmcp 3.11": (
        'rmcp = { version = "=3.11.0", features = ["server", "macros", "transport-io"] }\n'
        'serde = { version = "1", features = ["derive"] }\n'
        'tokio = { version = "1", features = ["rt-multi-thread", "macros", "io-std"] }\n',
        rmcp_main,
    ),
}


def generate(name: str) -> Path:
    dependencies, main = CRATES[name]
    crate = ROOT / name.split()[0]
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "compile-{crate.name}"\nversion = "0.0.0"\nedition = "2024"\n'
        f"publish = false\n\n[dependencies]\n{dependencies}\n[workspace]\n"
    )
    # The benchmark workspace's lock file pins the same dependency versions for both.
    shutil.copy(HERE / "Cargo.lock", crate / "Cargo.lock")
    (crate / "src" / "main.rs").write_text(main())
    return crate


def build(crate: Path, release: bool) -> float:
    command = ["cargo", "build", "--quiet"] + (["--release"] if release else [])
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "target"))
    start = time.perf_counter()
    subprocess.run(command, cwd=crate, env=env, check=True)
    return time.perf_counter() - start


def touched(crate: Path, release: bool) -> float:
    (crate / "src" / "main.rs").touch()
    return build(crate, release)


def edited(crate: Path, release: bool, run: int) -> float:
    # Changes a constant in the body of the middle tool: a different program each run.
    main = crate / "src" / "main.rs"
    tool = TOOLS // 2
    text, count = re.subn(rf"value \+ {tool}( \+ \d+)?\)", f"value + {tool} + {run + 1})", main.read_text())
    assert count == 1, "exactly one tool body changes"
    main.write_text(text)
    return build(crate, release)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-release", action="store_true")
    args = parser.parse_args()
    rows = {}
    for name in CRATES:
        crate = generate(name)
        build(crate, False)  # dependencies, and a first build of the crate
        row = {
            "debug, touch": statistics.median(touched(crate, False) for _ in range(args.runs)),
            "debug, one body edited": statistics.median(
                edited(crate, False, run) for run in range(args.runs)
            ),
        }
        if not args.no_release:
            build(crate, True)
            row["release, touch"] = statistics.median(touched(crate, True) for _ in range(args.runs))
        rows[name] = row
    print_table(
        f"compile time of a crate with {TOOLS} tools, dependencies built (median of {args.runs})",
        rows, list(next(iter(rows.values()))), "rmcp 3.11", lambda seconds: f"{seconds:.2f} s",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
