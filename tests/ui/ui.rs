//! Compile-time behaviour of the macros: accepted shapes compile and run; mistakes fail with
//! the error checked in beside each case (`TRYBUILD=overwrite` regenerates them).

use std::path::Path;

#[test]
fn ui() {
    // The cases are programs using `toolwright`, as its users write them. trybuild builds them
    // against the package in `CARGO_MANIFEST_DIR` and its dev-dependencies, finds them from the
    // current folder, and writes the paths in their errors relative to the package: run it as
    // a test of the root package, from the repository's root.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("this package is tests/ui in the repository");
    std::env::set_current_dir(root).unwrap();
    // SAFETY: the only test of this binary; no other thread reads or writes the environment.
    unsafe { std::env::set_var("CARGO_MANIFEST_DIR", root) };
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
