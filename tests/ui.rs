//! Compile-time behaviour of the macros: accepted shapes compile and run; mistakes fail with
//! the error checked in beside each case (`TRYBUILD=overwrite` regenerates them).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
