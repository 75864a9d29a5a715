//! [`RedisTaskStore`]: tasks kept in Redis (feature `redis`), which every replica of a server
//! reaches, so that any replica answers for any task.
//!
//! **Keys.** A task is one string key, the store's prefix (`toolwright:task:` unless
//! [`RedisTaskStore::with_prefix`] says otherwise) followed by its id, whose value is the JSON
//! text the server wrote. Nothing else is stored: no index, no set of ids.
//!
//! **Time to live.** [`insert`](TaskStore::insert) is `SET key value NX PX ttl`: Redis expires
//! the key itself, to the millisecond (at least one). [`replace`](TaskStore::replace) writes with
//! `KEEPTTL` (Redis 6.0 or later), so a task changed many times still expires when its insert
//! said.
//!
//! **Atomicity.** An insert is that one command. A replace is a Lua script, which Redis runs with
//! no other command in between: it reads the key, and writes only if the value still is what the
//! replacer read. Of two replicas that read the same value and both replace it, one wins; the
//! other reads again and retries (the server's loop).
//!
//! **Wakes.** [`notify`](TaskStore::notify) publishes on the task's channel, the prefix then
//! `changed:` then the id (a channel is not a key: it holds nothing). Each store has one pub/sub
//! connection, owned by a background task (`Subscriber`). A [`watch`](TaskStore::watch) hands
//! it a [`Waker`]; the first watch of an id has it `SUBSCRIBE` to the id's channel, and the watch
//! completes only once Redis confirmed the subscription, so a notify made after that reaches it.
//! A message wakes the id's watches; a channel whose watches are all gone is unsubscribed. When
//! the connection drops, the background task connects again (waiting longer after each failure,
//! up to a few seconds, and not at all while nothing is watched), subscribes again to every
//! channel still watched and wakes all their watches: a notify may have been missed meanwhile,
//! and a wake says only "read it again".

use std::collections::HashMap;
use std::pin::Pin;
use std::time::Duration;

use futures_core::Stream;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink, PubSubStream};
use redis::{Client, RedisError, Script, Value};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, MissedTickBehavior};

use crate::tasks::store::{StoreError, StoreFuture, TaskStore, Waker, Watch};

/// The prefix of keys and channels unless [`RedisTaskStore::with_prefix`] sets another.
const DEFAULT_PREFIX: &str = "toolwright:task:";

/// How long connecting to Redis may take, each attempt.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long Redis may take to answer a command (or to confirm a subscription).
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);

/// How many times the command connection tries again to connect, waiting longer each time, up
/// to [`RETRY_MAX`]; a command waiting on it fails once they all failed.
const CONNECT_RETRIES: usize = 3;

/// The first and the longest wait before connecting again.
const RETRY_MIN: Duration = Duration::from_millis(100);
const RETRY_MAX: Duration = Duration::from_secs(5);

/// How often the background task forgets the wakers whose watch is gone, and unsubscribes from
/// the channels nobody watches any more.
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// The longest time to live Redis is given: far beyond any task's, and far below the most
/// Redis accepts.
const TTL_MAX_MS: u128 = 1 << 50;

/// Replaces `KEYS[1]` with `ARGV[2]` if it still is `ARGV[1]`, keeping its expiry; a missing
/// key reads as `false`, which no string equals.
const REPLACE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  return 1
end
return 0
";

/// Tasks kept in Redis, shared by every replica of a server that connects to the same Redis
/// with the same prefix. Commands go through one multiplexed connection that reconnects by
/// itself; wakes come through one pub/sub connection (see the module's documentation).
///
/// The store's connections are driven by the Tokio runtime it connected in, which must outlive
/// it: the server's own, or, for [`Server::run`](crate::Server::run) and `serve_http`, which
/// make their own, one kept for the life of the program:
///
/// ```no_run
/// use std::process::ExitCode;
/// use toolwright_runtime::{RedisTaskStore, Server};
///
/// fn main() -> ExitCode {
///     let runtime = tokio::runtime::Runtime::new().expect("a Tokio runtime");
///     let url = "redis://127.0.0.1:6379/";
///     let store = match runtime.block_on(RedisTaskStore::connect(url)) {
///         Ok(store) => store,
///         Err(error) => {
///             eprintln!("{error}");
///             return ExitCode::FAILURE;
///         }
///     };
///     Server::new("weather", "1.0.0").task_store(store).discover().run()
/// }
/// ```
pub struct RedisTaskStore {
    connection: ConnectionManager,
    prefix: String,
    replace: Script,
    subscriber: mpsc::UnboundedSender<Subscribe>,
}

/// A watch handed to the background task: its channel, its waker, and where to say that the
/// channel is subscribed (or why it could not be).
struct Subscribe {
    channel: String,
    waker: Waker,
    done: oneshot::Sender<Result<(), StoreError>>,
}

impl RedisTaskStore {
    /// Connects to the Redis at `url` (`redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or
    /// `redis+unix:///PATH`); fails if the URL is not one, or Redis cannot be reached after a
    /// few tries (within seconds). Keys and channels start with `toolwright:task:`.
    pub async fn connect(url: &str) -> Result<RedisTaskStore, StoreError> {
        let client = Client::open(url).map_err(|e| failed("the Redis URL is not valid", e))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(CONNECT_RETRIES)
            .set_min_delay(RETRY_MIN)
            .set_max_delay(RETRY_MAX);
        let connection = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|e| failed("could not connect to Redis", e))?;
        let (subscriber, requests) = mpsc::unbounded_channel();
        tokio::spawn(Subscriber::new(client, requests).run());
        Ok(RedisTaskStore {
            connection,
            prefix: DEFAULT_PREFIX.to_owned(),
            replace: Script::new(REPLACE),
            subscriber,
        })
    }

    /// The same store with keys and channels under `prefix` instead: servers sharing a Redis
    /// but not their tasks each take their own.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> RedisTaskStore {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, id: &str) -> String {
        key(&self.prefix, id)
    }

    fn channel(&self, id: &str) -> String {
        channel(&self.prefix, id)
    }
}

/// The key of a task.
fn key(prefix: &str, id: &str) -> String {
    format!("{prefix}{id}")
}

/// The channel of a task's wakes. One channel per task rather than one for all: Redis then
/// delivers a change only to the replicas watching that task (the one running it), not every
/// change of every task to every replica. The price is a subscription per watched task, one
/// round trip when its first watch begins.
fn channel(prefix: &str, id: &str) -> String {
    format!("{prefix}changed:{id}")
}

/// A time to live in whole milliseconds, as `PX` takes it: at least one (Redis refuses zero),
/// at most [`TTL_MAX_MS`].
fn millis(ttl: Duration) -> u64 {
    let nanos = ttl.as_nanos();
    let millis = nanos.div_ceil(1_000_000).clamp(1, TTL_MAX_MS);
    u64::try_from(millis).unwrap_or(u64::MAX)
}

fn failed(what: &str, error: RedisError) -> StoreError {
    StoreError::new(format!("{what}: {error}"))
}

impl TaskStore for RedisTaskStore {
    fn insert(&self, id: &str, value: String, ttl: Duration) -> StoreFuture<'_, bool> {
        let key = self.key(id);
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let reply: Value = redis::cmd("SET")
                .arg(&key)
                .arg(value)
                .arg("NX")
                .arg("PX")
                .arg(millis(ttl))
                .query_async(&mut connection)
                .await
                .map_err(|e| failed("could not insert a task into Redis", e))?;
            match reply {
                Value::Okay => Ok(true),
                Value::Nil => Ok(false),
                other => Err(StoreError::new(format!(
                    "Redis answered a task's insert with {other:?}"
                ))),
            }
        })
    }

    fn get(&self, id: &str) -> StoreFuture<'_, Option<String>> {
        let key = self.key(id);
        Box::pin(async move {
            let mut connection = self.connection.clone();
            redis::cmd("GET")
                .arg(&key)
                .query_async(&mut connection)
                .await
                .map_err(|e| failed("could not read a task from Redis", e))
        })
    }

    fn replace(&self, id: &str, current: &str, value: String) -> StoreFuture<'_, bool> {
        let key = self.key(id);
        let current = current.to_owned();
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let replaced: i64 = self
                .replace
                .key(&key)
                .arg(current)
                .arg(value)
                .invoke_async(&mut connection)
                .await
                .map_err(|e| failed("could not replace a task in Redis", e))?;
            Ok(replaced == 1)
        })
    }

    fn notify(&self, id: &str) -> StoreFuture<'_, ()> {
        let channel = self.channel(id);
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let _receivers: i64 = redis::cmd("PUBLISH")
                .arg(&channel)
                .arg("")
                .query_async(&mut connection)
                .await
                .map_err(|e| failed("could not publish a task's change to Redis", e))?;
            Ok(())
        })
    }

    fn watch(&self, id: &str) -> StoreFuture<'_, Watch> {
        let channel = self.channel(id);
        Box::pin(async move {
            let (waker, watch) = Watch::new();
            let (done, subscribed) = oneshot::channel();
            let gone = || StoreError::new("the Redis task store's subscriber has stopped");
            self.subscriber
                .send(Subscribe {
                    channel,
                    waker,
                    done,
                })
                .map_err(|_| gone())?;
            subscribed.await.map_err(|_| gone())??;
            Ok(watch)
        })
    }
}

/// The background task of a store: it owns the pub/sub connection (opened at the first watch)
/// and the wakers of every channel it subscribed to, and ends with the store.
struct Subscriber {
    client: Client,
    requests: mpsc::UnboundedReceiver<Subscribe>,
    /// The wakers of each channel. While connected, every channel here is subscribed; while
    /// not, they are what to subscribe to again.
    channels: HashMap<String, Vec<Waker>>,
    connection: Option<Connection>,
    /// When to connect again, after the connection dropped (none while connected, or while
    /// nothing is watched).
    retry_at: Option<Instant>,
    /// The wait before the next attempt after that one fails.
    retry_delay: Duration,
    /// When the current connection was made: one that lasted resets the wait.
    connected_at: Instant,
}

struct Connection {
    sink: PubSubSink,
    messages: PubSubStream,
}

impl Subscriber {
    fn new(client: Client, requests: mpsc::UnboundedReceiver<Subscribe>) -> Subscriber {
        Subscriber {
            client,
            requests,
            channels: HashMap::new(),
            connection: None,
            retry_at: None,
            retry_delay: RETRY_MIN,
            connected_at: Instant::now(),
        }
    }

    async fn run(mut self) {
        let mut sweep = tokio::time::interval(SWEEP_EVERY);
        sweep.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            let retry_at = self.retry_at;
            tokio::select! {
                request = self.requests.recv() => {
                    let Some(request) = request else {
                        return; // the store is gone
                    };
                    // Watches begun meanwhile share one SUBSCRIBE.
                    let mut batch = vec![request];
                    while let Ok(request) = self.requests.try_recv() {
                        batch.push(request);
                    }
                    self.subscribe(batch).await;
                }
                message = next_message(&mut self.connection) => match message {
                    Some(channel) => self.wake(&channel).await,
                    None => self.dropped(),
                },
                () = sleep_until(retry_at) => {
                    self.retry_at = None;
                    if let Err(error) = self.reconnect().await {
                        tracing::warn!(target: "toolwright", %error, "task wakes are lost until Redis is reached again");
                    }
                }
                _ = sweep.tick() => self.sweep().await,
            }
        }
    }

    /// Subscribes to the channels of `batch` not subscribed yet (connecting first if need be),
    /// then keeps their wakers and says so to each watch; or says why not.
    async fn subscribe(&mut self, batch: Vec<Subscribe>) {
        let mut outcome = match self.connection {
            Some(_) => Ok(()),
            None => self.reconnect().await,
        };
        if outcome.is_ok()
            && let Some(connection) = &mut self.connection
        {
            let mut fresh: Vec<&str> = batch
                .iter()
                .map(|request| request.channel.as_str())
                .filter(|channel| !self.channels.contains_key(*channel))
                .collect();
            fresh.sort_unstable();
            fresh.dedup();
            if !fresh.is_empty() {
                outcome = subscribe(&mut connection.sink, &fresh).await;
                if outcome.is_err() {
                    self.dropped();
                }
            }
        }
        match outcome {
            Ok(()) => {
                for request in batch {
                    let wakers = self.channels.entry(request.channel).or_default();
                    wakers.retain(|waker| !waker.is_unwatched());
                    wakers.push(request.waker);
                    let _ = request.done.send(Ok(()));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for request in batch {
                    let _ = request.done.send(Err(StoreError::new(error.clone())));
                }
            }
        }
    }

    /// Connects, subscribes to every channel still watched and wakes their watches (a notify
    /// may have come while there was no connection). On failure, tries again later if anything
    /// is watched.
    async fn reconnect(&mut self) -> Result<(), StoreError> {
        self.forget_unwatched();
        let outcome = async {
            let pubsub = tokio::time::timeout(CONNECT_TIMEOUT, self.client.get_async_pubsub())
                .await
                .map_err(|_| StoreError::new("timed out connecting to Redis for task wakes"))?
                .map_err(|e| failed("could not connect to Redis for task wakes", e))?;
            let (mut sink, messages) = pubsub.split();
            let channels: Vec<&str> = self.channels.keys().map(String::as_str).collect();
            if !channels.is_empty() {
                subscribe(&mut sink, &channels).await?;
            }
            Ok(Connection { sink, messages })
        }
        .await;
        match outcome {
            Ok(connection) => {
                self.connection = Some(connection);
                self.connected_at = Instant::now();
                self.retry_at = None;
                self.channels.values().flatten().for_each(Waker::wake);
                Ok(())
            }
            Err(error) => {
                self.connection = None;
                self.retry_later();
                Err(error)
            }
        }
    }

    /// The connection is gone: try again later, if anything is watched.
    fn dropped(&mut self) {
        self.connection = None;
        if self.connected_at.elapsed() >= RETRY_MAX {
            self.retry_delay = RETRY_MIN;
        }
        self.forget_unwatched();
        self.retry_later();
    }

    fn retry_later(&mut self) {
        if self.channels.is_empty() {
            self.retry_at = None;
            self.retry_delay = RETRY_MIN;
            return;
        }
        self.retry_at = Some(Instant::now() + self.retry_delay);
        self.retry_delay = (self.retry_delay * 2).min(RETRY_MAX);
    }

    /// Wakes the watches of `channel`, and unsubscribes from it if none is left.
    async fn wake(&mut self, channel: &str) {
        let Some(wakers) = self.channels.get_mut(channel) else {
            return;
        };
        wakers.retain(|waker| !waker.is_unwatched());
        wakers.iter().for_each(Waker::wake);
        if wakers.is_empty() {
            self.channels.remove(channel);
            self.unsubscribe(vec![channel.to_owned()]).await;
        }
    }

    /// Forgets the wakers whose watch is gone, and unsubscribes from the channels left with
    /// none.
    async fn sweep(&mut self) {
        let unwatched = self.forget_unwatched();
        if unwatched.is_empty() {
            return;
        }
        if self.channels.is_empty() && self.connection.is_none() {
            self.retry_at = None;
        }
        self.unsubscribe(unwatched).await;
    }

    /// Forgets the wakers whose watch is gone; the channels left with none, removed.
    fn forget_unwatched(&mut self) -> Vec<String> {
        let mut unwatched = Vec::new();
        self.channels.retain(|channel, wakers| {
            wakers.retain(|waker| !waker.is_unwatched());
            if wakers.is_empty() {
                unwatched.push(channel.clone());
            }
            !wakers.is_empty()
        });
        unwatched
    }

    async fn unsubscribe(&mut self, channels: Vec<String>) {
        let Some(connection) = &mut self.connection else {
            return;
        };
        let unsubscribed =
            tokio::time::timeout(RESPONSE_TIMEOUT, connection.sink.unsubscribe(&channels)).await;
        if !matches!(unsubscribed, Ok(Ok(()))) {
            // Whatever became of it, a new connection subscribes only to what is watched.
            self.dropped();
        }
    }
}

/// Subscribes to `channels`, within [`RESPONSE_TIMEOUT`].
async fn subscribe(sink: &mut PubSubSink, channels: &[&str]) -> Result<(), StoreError> {
    tokio::time::timeout(RESPONSE_TIMEOUT, sink.subscribe(channels))
        .await
        .map_err(|_| StoreError::new("timed out subscribing to task wakes in Redis"))?
        .map_err(|e| failed("could not subscribe to task wakes in Redis", e))
}

/// The channel of the next message; `None` once the connection dropped; never while there is
/// no connection.
async fn next_message(connection: &mut Option<Connection>) -> Option<String> {
    let Some(connection) = connection else {
        return std::future::pending().await;
    };
    let mut messages = Pin::new(&mut connection.messages);
    std::future::poll_fn(|cx| messages.as_mut().poll_next(cx))
        .await
        .map(|message| message.get_channel_name().to_owned())
}

/// Completes at `at`; never without one.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_to_live_are_whole_milliseconds_of_at_least_one() {
        assert_eq!(millis(Duration::ZERO), 1);
        assert_eq!(millis(Duration::from_micros(1)), 1);
        assert_eq!(millis(Duration::from_micros(1500)), 2);
        assert_eq!(millis(Duration::from_secs(3600)), 3_600_000);
        assert_eq!(millis(Duration::MAX), 1 << 50);
    }

    #[test]
    fn keys_and_channels_are_under_the_prefix() {
        let id = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            key(DEFAULT_PREFIX, id),
            "toolwright:task:0123456789abcdef0123456789abcdef"
        );
        assert_eq!(
            channel(DEFAULT_PREFIX, id),
            "toolwright:task:changed:0123456789abcdef0123456789abcdef"
        );
        assert_eq!(key("app:", "a"), "app:a");
    }

    #[test]
    fn an_unreachable_redis_is_a_store_error() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // Nothing listens on port 1: connecting fails within its few tries.
        let error = runtime
            .block_on(async {
                let connecting = RedisTaskStore::connect("redis://127.0.0.1:1/");
                tokio::time::timeout(Duration::from_secs(30), connecting).await
            })
            .expect("connecting gives up")
            .err()
            .expect("nothing to connect to");
        assert!(
            error.to_string().contains("could not connect to Redis"),
            "{error}"
        );
        let error = runtime
            .block_on(RedisTaskStore::connect("http://127.0.0.1/"))
            .err()
            .expect("not a Redis URL");
        assert!(error.to_string().contains("not valid"), "{error}");
    }
}
