//! `RedisTaskStore` against a real Redis: the contract of a task store (insert once, compare
//! and swap, expiry), wakes from one replica to another, concurrent changes from two replicas,
//! and an unreachable Redis. Each store here is its own connection, as each replica of a server
//! has. The tests need a redis-server at `TOOLWRIGHT_REDIS_URL` (`tests/interop/run.sh redis`
//! starts one and runs them); each keeps its keys under a prefix of its own.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use toolwright::tasks::{RedisTaskStore, TaskStore};

const HOUR: Duration = Duration::from_secs(3600);

/// How long anything that should happen may take.
const PATIENCE: Duration = Duration::from_secs(10);

fn url() -> String {
    std::env::var("TOOLWRIGHT_REDIS_URL")
        .expect("TOOLWRIGHT_REDIS_URL names the redis-server to test against")
}

/// A store (a replica's connection) whose keys are the test's own.
async fn store(test: &str) -> RedisTaskStore {
    RedisTaskStore::connect(&url())
        .await
        .expect("connects to TOOLWRIGHT_REDIS_URL")
        .with_prefix(format!("toolwright-test:{}:{test}:", std::process::id()))
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn an_id_is_inserted_once_and_read_back() {
    let store = store("insert").await;
    assert!(store.insert("a", "1".into(), HOUR).await.unwrap());
    assert!(
        !store.insert("a", "2".into(), HOUR).await.unwrap(),
        "an id is taken once"
    );
    assert_eq!(store.get("a").await.unwrap().as_deref(), Some("1"));
    assert_eq!(store.get("b").await.unwrap(), None);
    let other = self::store("insert-other").await;
    assert_eq!(
        other.get("a").await.unwrap(),
        None,
        "another prefix, other tasks"
    );
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn a_value_is_replaced_only_from_what_was_read_and_keeps_its_expiry() {
    let store = store("replace").await;
    let inserted = Instant::now();
    let ttl = Duration::from_millis(1500);
    assert!(store.insert("a", "1".into(), ttl).await.unwrap());
    assert!(
        !store.replace("a", "0", "2".into()).await.unwrap(),
        "a stale read loses"
    );
    assert!(store.replace("a", "1", "2".into()).await.unwrap());
    assert_eq!(store.get("a").await.unwrap().as_deref(), Some("2"));
    assert!(
        !store.replace("a", "1", "3".into()).await.unwrap(),
        "what was read is gone"
    );
    assert!(
        !store.replace("b", "", "x".into()).await.unwrap(),
        "nothing to replace"
    );
    assert_eq!(
        store.get("b").await.unwrap(),
        None,
        "replace inserts nothing"
    );
    // Replaced later on, it still expires when its insert said.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(store.replace("a", "2", "3".into()).await.unwrap());
    tokio::time::sleep_until((inserted + ttl + Duration::from_millis(300)).into()).await;
    assert_eq!(store.get("a").await.unwrap(), None, "the expiry was kept");
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn values_expire_after_their_time_to_live() {
    let store = store("expiry").await;
    assert!(
        store
            .insert("a", "1".into(), Duration::from_millis(300))
            .await
            .unwrap()
    );
    assert_eq!(store.get("a").await.unwrap().as_deref(), Some("1"));
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(store.get("a").await.unwrap(), None);
    assert!(!store.replace("a", "1", "2".into()).await.unwrap());
    assert!(
        store.insert("a", "again".into(), HOUR).await.unwrap(),
        "an expired id is free"
    );
    assert_eq!(store.get("a").await.unwrap().as_deref(), Some("again"));
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn a_notify_on_one_replica_wakes_the_watches_on_another() {
    let runner = store("wakes").await;
    let answerer = store("wakes").await;
    // A notify made right after the watch completed is not missed, every time.
    for i in 0..20 {
        let id = format!("t{i}");
        let mut watch = runner.watch(&id).await.unwrap();
        let mut again = runner.watch(&id).await.unwrap();
        answerer.notify(&id).await.unwrap();
        tokio::time::timeout(PATIENCE, watch.woken())
            .await
            .unwrap_or_else(|_| panic!("watch {i} woken"));
        tokio::time::timeout(PATIENCE, again.woken())
            .await
            .unwrap_or_else(|_| panic!("second watch {i} woken"));
    }
    // Only a notify of its own id wakes a watch; a wake comes once per notify.
    let mut watch = runner.watch("x").await.unwrap();
    answerer.notify("y").await.unwrap();
    runner.notify("z").await.unwrap();
    let quiet = tokio::time::timeout(Duration::from_millis(300), watch.woken()).await;
    assert!(quiet.is_err(), "woken by another id");
    answerer.notify("x").await.unwrap();
    tokio::time::timeout(PATIENCE, watch.woken())
        .await
        .expect("woken by its id");
    let quiet = tokio::time::timeout(Duration::from_millis(300), watch.woken()).await;
    assert!(quiet.is_err(), "one notify, one wake");
    // A replica's own notify wakes its own watches too; and a watch dropped takes nothing
    // with it.
    drop(runner.watch("x").await.unwrap());
    runner.notify("x").await.unwrap();
    tokio::time::timeout(PATIENCE, watch.woken())
        .await
        .expect("woken by its own replica");
}

/// As `Server::run` uses a store: connected in a runtime kept for the purpose, used from the
/// server's own.
#[test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
fn a_store_connected_in_one_runtime_serves_another() {
    let home = tokio::runtime::Runtime::new().unwrap();
    let runner = home.block_on(store("runtimes"));
    let answerer = home.block_on(store("runtimes"));
    let serving = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    serving.block_on(async {
        assert!(runner.insert("a", "1".into(), HOUR).await.unwrap());
        assert!(runner.replace("a", "1", "2".into()).await.unwrap());
        assert_eq!(runner.get("a").await.unwrap().as_deref(), Some("2"));
        let mut watch = runner.watch("a").await.unwrap();
        answerer.notify("a").await.unwrap();
        tokio::time::timeout(PATIENCE, watch.woken())
            .await
            .expect("woken");
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn concurrent_changes_from_two_replicas_are_none_lost() {
    const EACH: u64 = 50;
    let a = std::sync::Arc::new(store("counter").await);
    let b = std::sync::Arc::new(store("counter").await);
    assert!(
        a.insert("n", json!({"count": 0}).to_string(), HOUR)
            .await
            .unwrap()
    );
    let mut increments = tokio::task::JoinSet::new();
    for replica in [&a, &b] {
        for _ in 0..EACH {
            let replica = std::sync::Arc::clone(replica);
            increments.spawn(async move {
                let mut tries = 0u32;
                loop {
                    tries += 1;
                    let current = replica.get("n").await.unwrap().expect("the counter");
                    let count = serde_json::from_str::<Value>(&current).unwrap()["count"]
                        .as_u64()
                        .unwrap();
                    let next = json!({"count": count + 1}).to_string();
                    if replica.replace("n", &current, next).await.unwrap() {
                        return tries;
                    }
                }
            });
        }
    }
    let mut tries = 0;
    while let Some(joined) = increments.join_next().await {
        tries += joined.expect("an increment");
    }
    let last = a.get("n").await.unwrap().expect("the counter");
    assert_eq!(
        serde_json::from_str::<Value>(&last).unwrap()["count"],
        2 * EACH,
        "{tries} tries"
    );
    assert_eq!(b.get("n").await.unwrap(), Some(last));
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn an_unreachable_redis_is_an_error_in_bounded_time() {
    // A closed port: connecting is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let url = format!("redis://127.0.0.1:{port}/");
    let error = tokio::time::timeout(Duration::from_secs(30), RedisTaskStore::connect(&url))
        .await
        .expect("gives up in bounded time")
        .err()
        .expect("nothing to connect to");
    assert!(
        error.to_string().contains("could not connect to Redis"),
        "{error}"
    );
    // A server that accepts and never answers: the same, once its time is up.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = silent.local_addr().unwrap();
    let accepting = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((connection, _)) = silent.accept().await {
            held.push(connection);
        }
    });
    let url = format!("redis://{address}/");
    let error = tokio::time::timeout(Duration::from_secs(30), RedisTaskStore::connect(&url))
        .await
        .expect("gives up in bounded time")
        .err()
        .expect("no answer");
    assert!(
        error.to_string().contains("could not connect to Redis"),
        "{error}"
    );
    accepting.abort();
}

#[tokio::test]
#[ignore = "needs a redis-server: tests/interop/run.sh redis starts one"]
async fn a_replica_cut_off_from_redis_fails_then_recovers_and_is_woken_again() {
    let mut proxy = Proxy::start().await;
    let runner = RedisTaskStore::connect(&format!("redis://{}/", proxy.address))
        .await
        .expect("connects through the proxy")
        .with_prefix(format!("toolwright-test:{}:cut:", std::process::id()));
    let answerer = store("cut").await;
    assert!(runner.insert("a", "1".into(), HOUR).await.unwrap());
    let mut watch = runner.watch("a").await.unwrap();

    // Cut off: each operation fails, as a store error, in bounded time.
    proxy.cut();
    let failed = tokio::time::timeout(Duration::from_secs(30), runner.get("a"))
        .await
        .expect("a read fails in bounded time");
    assert!(failed.is_err(), "read while cut off: {failed:?}");
    let failed = tokio::time::timeout(Duration::from_secs(30), runner.watch("b"))
        .await
        .expect("a watch fails in bounded time");
    assert!(failed.is_err(), "watched while cut off");
    answerer.notify("a").await.unwrap(); // lost: nobody is subscribed

    // Back: operations succeed again, and the watch is woken (a notify may have been lost)
    // and then woken by each notify again.
    proxy.restore().await;
    let deadline = Instant::now() + PATIENCE;
    while runner.get("a").await.is_err() {
        assert!(Instant::now() < deadline, "reads again once Redis is back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::timeout(PATIENCE, watch.woken())
        .await
        .expect("woken once subscribed again");
    answerer.notify("a").await.unwrap();
    tokio::time::timeout(PATIENCE, watch.woken())
        .await
        .expect("woken by a notify after the cut");
    let mut fresh = runner.watch("b").await.expect("watches again");
    answerer.notify("b").await.unwrap();
    tokio::time::timeout(PATIENCE, fresh.woken())
        .await
        .expect("a new watch is woken");
}

/// A TCP proxy to the Redis at `TOOLWRIGHT_REDIS_URL` (`redis://HOST:PORT...`), to cut a
/// replica off from Redis and let it back.
struct Proxy {
    address: SocketAddr,
    target: String,
    serving: JoinHandle<()>,
}

impl Proxy {
    async fn start() -> Proxy {
        let url = url();
        let target = url
            .trim_start_matches("redis://")
            .split(['/', '?'])
            .next()
            .unwrap()
            .to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let serving = tokio::spawn(Proxy::serve(listener, target.clone()));
        Proxy {
            address,
            target,
            serving,
        }
    }

    async fn serve(listener: TcpListener, target: String) {
        // Dropped with this task, the set ends every connection it forwards.
        let mut connections = JoinSet::new();
        while let Ok((mut inbound, _)) = listener.accept().await {
            let target = target.clone();
            connections.spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(&target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    }

    /// Closes the port and every connection through it.
    fn cut(&mut self) {
        self.serving.abort();
    }

    /// Listens again, on the same port.
    async fn restore(&mut self) {
        let _ = (&mut self.serving).await;
        let listener = TcpListener::bind(self.address).await.unwrap();
        self.serving = tokio::spawn(Proxy::serve(listener, self.target.clone()));
    }
}
