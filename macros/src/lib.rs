//! Procedural macros of [toolwright](https://docs.rs/toolwright). Use them through the
//! `toolwright` crate, which re-exports them with the runtime they generate code for.
//!
//! # Diagnostics
//!
//! Every mistake in a tool's, a prompt's or a resource's signature or attributes fails to
//! compile with one error, placed on the offending tokens; the function itself is still
//! emitted, so code that uses it reports nothing more. Each row has a compile-fail case under
//! `tests/ui/fail/`.
//!
//! | mistake | example | error |
//! |---|---|---|
//! | unknown attribute key | `#[mcp_tool(nmae = "x")]` | unknown `mcp_tool` attribute `nmae`; expected one of ...; did you mean `name`? |
//! | duplicate key | `name = "a", name = "b"` | duplicate attribute `name` |
//! | value of the wrong kind | `read_only = "yes"`, `title = 5` | `read_only` expects `true` or `false`, or no value |
//! | invalid tool name | `name = "get weather"` | invalid tool name; 1 to 128 characters of letters, digits, `_`, `-`, `.` |
//! | contradictory hints | `#[mcp_tool(read_only, destructive)]` | a `read_only` tool cannot be `destructive` |
//! | no description | a tool without `///` or `description` | a tool needs a description ... or opt out with `undocumented` |
//! | generic tool | `fn echo<T>(v: T)` | a tool cannot be generic |
//! | `impl Trait` argument or return | `fn f(v: impl Display)` | an argument cannot be `impl Trait` |
//! | reference argument | `fn f(text: &str)` | an argument cannot be a reference ...; take `String` instead |
//! | pattern parameter | `fn f((a, b): (i32, i32))` | a tool parameter must be a plain name |
//! | `unsafe fn` | `unsafe fn poke(...)` | a tool cannot be `unsafe fn` |
//! | a tag that is not a string, empty or twice | `tags(admin)`, `tags("")`, `tags("a", "a")` | `tags` expects a list of strings ...; a tag cannot be empty; duplicate tag `a` |
//! | method outside a tool type | `impl S { #[mcp_tool] fn f(&self) }` | `#[mcp_tool]` on a method needs `#[mcp_tool_type]` on its impl block |
//! | wrong receiver | `fn f(&mut self)`, `fn f(self)` | a tool method takes `&self` |
//! | argument not `Deserialize` / `JsonSchema` | `query: Query` without the derives | serde's or schemars' trait error, at the parameter's type |
//! | type named like an injectable but not one | a struct of your own called `Context` | `Context` cannot be injected into a tool; mark it `#[arg]` if the client sends it |
//! | unsupported return type | `-> Opaque`, `-> Fallible<Opaque>` | `Opaque` cannot be returned from a tool, with the list of what can |
//! | a `Result` inside a `Result` | `-> Fallible<Result<u8, E>>` | a tool cannot return a `Result` inside a `Result` |
//! | async tool whose future is not `Send` | an `Rc` held across `.await` | future cannot be sent between threads safely, with the value and the `.await` |
//! | same injected type twice | `a: Progress, b: Progress` | `Progress` is injected twice |
//! | `#[arg]` and `#[inject]` together | both on one parameter | a parameter is either ... not both |
//! | `default` on an `Option` | `#[arg(default = Some(3))] n: Option<u32>` | `default` has no effect on an `Option` argument |
//! | invalid header name | `#[arg(header = "Cloud Region")]` | invalid header name `Cloud Region`; a header name has ... |
//! | two arguments in one header | `header = "Region"` and `header = "region"` | two arguments use the header `Mcp-Param-region` (header names ignore case) |
//! | header argument of another type | `#[arg(header = "Tags")] tags: Vec<String>` | `Vec<String>` cannot be sent as an HTTP header |
//! | asking the client from a sync tool | `fn f(ask: Elicit<Confirm>)` | `Elicit` asks the client mid-call, so the tool must be an `async fn`, at the parameter |
//! | a default that does not serialize | `#[arg(default = SortBy::Name)]` on an enum without `Serialize` | the default of a `SortBy` argument cannot be written into the input schema, at the default |
//! | stale `# Arguments` entry | ``* `name` -`` for a parameter `who` | the `# Arguments` section documents `name`, which is not a parameter |
//! | two tools of one name in an impl | two methods with `name = "get"` | two tools in this impl block are named `get` |
//! | `complete` on a tool's argument | `#[arg(complete = cities)] city: String` | `complete` is for prompt arguments and template variables |
//! | a completion function of another signature | `#[arg(complete = f)]`, `fn f(prefix: &str)` | `fn(&str) -> Vec<String> {f}` cannot complete an argument, at the path |
//! | a prompt argument or template variable a string cannot hold | `tags: Vec<String>`, `name: &str` | a prompt argument arrives as a string: `Vec<String>` cannot come from one; ... |
//! | a task's keys without `task` | `#[mcp_tool(task_ttl_ms = 60000)]`, or a `TaskStart` parameter | `task_ttl_ms` is for a tool that runs as a task: add `task = "optional"` ... |
//! | `TaskStart` in a sync tool or a prompt | `fn f(task: TaskStart)` | `TaskStart::start` is awaited, so the tool must be an `async fn` |
//! | asking the client from a sync prompt or resource | `fn f(ask: Elicit<Confirm>)` | `Elicit` asks the client mid-call, so the prompt must be an `async fn` ... |
//! | `Args<T>`, `header`, constraints or `#[schemars]` on a prompt or a resource | `#[arg(header = "Region")]` | `header` is for tool arguments: ... |
//! | unsupported prompt or resource return type | `-> Opaque` | a prompt cannot return `Opaque`, with the list of what can, at the return type |
//! | a resource without its URI first | `#[mcp_resource(name = "x")]` | `#[mcp_resource]` needs the resource's URI first ... |
//! | a URI that is not an RFC 6570 template | `"notes://{id"`, `"notes://{=id}"`, `"notes/x"` | invalid URI template `notes://{id`: a `{` is never closed |
//! | a template variable without its parameter | `"notes://{id}"` and no `id` | the URI template `notes://{id}` has the variable `id`, which no parameter takes ... |
//! | a parameter without its variable | `fn f(id: u32, lang: String)` for `"notes://{id}"` | the parameter `lang` is not a variable of the URI `notes://{id}` ... |
//! | `size` on a template | `#[mcp_resource("notes://{id}", size = 10)]` | `size` is for a resource without variables ... |
//! | a value out of range or of another form | `priority = 2`, `audience("model")`, `mime_type = "text"` | `priority` expects a number from 0 to 1 ... |
//! | two prompts of one name, two resources of one URI in an impl | two methods with `name = "draft"` | two prompts in this impl block are named `draft` ... |
//! | a method of two kinds | `#[mcp_tool]` and `#[mcp_prompt]` on one method | a method is one kind of item: it is already `#[mcp_tool]` ... |
//! | `#[mcp_tool]` on a non-function | on a struct | `#[mcp_tool]` goes on a function |
//! | `#[mcp_tool_type]` on a trait impl or a non-impl | `impl Default for Api` | `#[mcp_tool_type]` goes on an inherent impl block |

#![forbid(unsafe_code)]

// In layer order, lowest first: each module imports only from the modules before it here.
mod errors;
mod syntax;

mod doc;

mod attr;

mod model;

mod check;

mod generate;

mod fallback;
mod pipeline;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool. See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    pipeline::tool(args.into(), item.into()).into()
}

/// Turns a function into an MCP prompt. See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    pipeline::prompt(args.into(), item.into()).into()
}

/// Turns a function into an MCP resource, or a resource template when its URI has variables.
/// See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_resource(args: TokenStream, item: TokenStream) -> TokenStream {
    pipeline::resource(args.into(), item.into()).into()
}

/// Serves the `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` methods of an inherent impl
/// block as tools, prompts and resources, called on an instance given to the server. See the
/// `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_tool_type(args: TokenStream, item: TokenStream) -> TokenStream {
    pipeline::tool_type(args.into(), item.into()).into()
}
