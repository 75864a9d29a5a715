//! The cache hints of 2026-07-28 reads: none unless the resource or the server sets them (a
//! read may change and depend on the caller), the lists' own untouched, and never `public`
//! for contents that depend on who asks.

use std::time::Duration;

use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::resources::CacheScope;
use toolwright::testing::Client;
use toolwright::{Error, ProtocolVersion};

/// A counter whose updates the server announces, as the reference server's `memo://counter`.
#[mcp_resource("memo://counter")]
fn counter() -> &'static str {
    "3"
}

/// A page that changes once a day, and says so.
#[mcp_resource("memo://daily", ttl_ms = 86_400_000, cache = "public")]
fn daily() -> &'static str {
    "today's page"
}

/// The caller's own notes.
#[mcp_resource("memo://mine")]
fn mine(auth: Auth) -> String {
    format!("the notes of {}", auth.subject())
}

/// A caller's own notes, marked shareable by mistake.
#[mcp_resource("memo://shared-mine", cache = "public")]
fn shared_mine(auth: Auth) -> String {
    format!("the notes of {}", auth.subject())
}

/// Notes for those with a scope, marked shareable by mistake.
#[mcp_resource("memo://scoped", cache = "public", scopes("notes:read"))]
fn scoped() -> &'static str {
    "scoped"
}

/// Greets the caller it reads from the request.
#[mcp_resource("memo://greeting")]
fn greeting(ctx: &Context) -> String {
    format!("hello {}", ctx.auth().map_or("stranger", Auth::subject))
}

/// The caller, as a value of the author's own.
struct Reader(String);

impl Inject for Reader {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(Reader(cx.auth().map_or("", Auth::subject).to_owned()))
    }

    fn require(requirements: &mut toolwright::context::Requirements) {
        requirements.caller();
    }
}

/// The reader's page, marked shareable by mistake.
#[mcp_resource("memo://reader", cache = "public")]
fn reader_page(#[inject] reader: Reader) -> String {
    reader.0
}

fn hints(result: &Value) -> (u64, &str) {
    (
        result["ttlMs"].as_u64().unwrap(),
        result["cacheScope"].as_str().unwrap(),
    )
}

fn read(server: Server, uri: &str) -> Value {
    let mut server = server;
    let _updates = server.resource_updates();
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    client.read_resource(uri).unwrap()
}

#[test]
fn a_read_is_not_cached_unless_the_resource_or_the_server_says() {
    let server = || {
        Server::new("hints", "1")
            .resource::<counter>()
            .resource::<daily>()
    };
    assert_eq!(hints(&read(server(), "memo://counter")), (0, "private"));
    assert_eq!(
        hints(&read(server(), "memo://daily")),
        (86_400_000, "public"),
        "the resource's own"
    );
    let chosen = server().cache_reads(Duration::from_secs(300), CacheScope::Public);
    assert_eq!(hints(&read(chosen, "memo://counter")), (300_000, "public"));
    // The lists keep their own hints: an hour, shared.
    let mut client = Client::connect(server(), ProtocolVersion::V2026_07_28).unwrap();
    let listed = client.request("resources/list", json!({})).unwrap();
    assert_eq!(hints(&listed), (3_600_000, "public"));
    // `cache_ttl` is the lists', and no read's.
    let lists = server().cache_ttl(Duration::from_secs(60));
    assert_eq!(hints(&read(lists, "memo://counter")), (0, "private"));
}

#[test]
fn contents_that_depend_on_the_caller_are_never_shared() {
    let server = Server::new("hints", "1")
        .resource::<mine>()
        .cache_reads(Duration::from_secs(300), CacheScope::Public);
    let ada = toolwright::context::Auth::new("ada").with_scopes(["notes:read"]);
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28)
        .unwrap()
        .caller(ada);
    let read = client.read_resource("memo://mine").unwrap();
    assert_eq!(
        hints(&read),
        (300_000, "private"),
        "the server's TTL, never public"
    );
    let context = Server::new("hints", "1")
        .resource::<greeting>()
        .cache_reads(Duration::from_secs(300), CacheScope::Public);
    let mut client = Client::connect(context, ProtocolVersion::V2026_07_28).unwrap();
    assert_eq!(
        hints(&client.read_resource("memo://greeting").unwrap()),
        (300_000, "private"),
        "the whole request may carry the caller"
    );
    for (server, why) in [
        (
            Server::new("hints", "1").resource::<shared_mine>(),
            "it takes the caller",
        ),
        (
            Server::new("hints", "1").resource::<reader_page>(),
            "it takes the caller",
        ),
        (
            Server::new("hints", "1").resource::<scoped>(),
            "it needs scopes",
        ),
    ] {
        let error = Client::new(server)
            .err()
            .expect("refused where it is built");
        let Error::InvalidItem { problem, .. } = &error else {
            panic!("{error}");
        };
        assert!(problem.contains("`cache = \"public\"`"), "{problem}");
        assert!(problem.contains(why), "{problem}");
    }
}
