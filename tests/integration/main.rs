//! The integration tests that can share a process, as one test binary: one module per subject.
//!
//! `Server::discover()` would serve every tool linked into this binary, from every module, so
//! each module's servers name their tools (`.tool::<f>()`, in the order they are defined). The
//! tests that need a process of their own are binaries of their own, beside this folder.

#[path = "../common/mod.rs"]
mod common;
mod fixtures;

mod arguments;
mod asking;
mod asking_items;
mod asking_values;
mod cache_hints;
mod caller;
mod changing_items;
mod changing_tools;
mod cli;
mod constraints;
mod content;
mod defined_items;
mod defined_tools;
mod discovery;
mod eras;
mod errors;
mod http;
mod http_asking;
mod http_examples;
mod http_hosts;
mod http_items;
mod http_limits;
mod http_malformed;
mod http_mounts;
mod injection;
mod item_requests;
mod malformed;
mod middleware;
mod mounts;
mod notes;
mod oauth;
mod oauth_cli;
mod oauth_connections;
mod oauth_introspection;
mod oauth_streams;
mod prompts_resources;
mod properties;
mod protocol;
mod quickstart;
mod results;
mod roots;
mod schemas;
mod session_hooks;
mod string_arguments;
mod sync_tools;
mod tasks;
mod testing;
mod unknown_arguments;
mod visibility;
