//! Handshake-era sessions over HTTP: created by `initialize`, named by an `Mcp-Session-Id` of
//! 128 random bits from the operating system's CSPRNG, ended by DELETE or by idleness.
//!
//! A session keeps its open event streams by number, so that a client can resume one (a
//! 2025-11-25 session's events have ids), and its one GET stream for messages that belong to
//! no request.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::call::auth::Auth;
use crate::call::outlet::Outlet;
use crate::protocol::ProtocolVersion;
use crate::protocol::id::random_id;
use crate::server::engine::Engine;
use crate::server::session::Session;
use crate::transport::http::stream::EventStream;

pub(crate) struct HttpSession {
    pub(crate) id: String,
    /// The subject of the verified caller that opened it, if one did: no other caller may use
    /// it (it is unknown to them), so that a leaked id is not a way in.
    owner: Option<String>,
    pub(crate) session: Session,
    last_seen: Mutex<Instant>,
    next_stream: AtomicU64,
    streams: Mutex<Streams>,
}

#[derive(Default)]
struct Streams {
    /// The streams a client may resume, by number.
    open: HashMap<u64, Arc<EventStream>>,
    /// The GET stream, while a client reads it.
    standalone: Option<Arc<EventStream>>,
    /// What carries the server's news to the GET stream: the session holds it, so that it
    /// lasts as long as the session.
    listener: Option<Outlet>,
}

/// The most streams a session keeps for clients to resume.
const KEPT_STREAMS: usize = 256;

/// Why a session could not be created.
pub(crate) struct Full;

pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<HttpSession>>>,
    idle: Duration,
    max: usize,
}

impl Sessions {
    pub(crate) fn new(idle: Duration, max: usize) -> Sessions {
        Sessions {
            map: Mutex::default(),
            idle,
            max,
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<HttpSession>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session with a fresh id for `owner`, unless the server holds as many as it may.
    pub(crate) fn create(
        &self,
        engine: &Arc<Engine>,
        owner: Option<&Auth>,
    ) -> Result<Arc<HttpSession>, Full> {
        let id = random_id();
        let mut served = Session::new(Arc::clone(engine));
        served.id = Some(Arc::from(id.as_str()));
        let session = Arc::new(HttpSession {
            owner: owner.map(|auth| auth.subject().to_owned()),
            session: served,
            id,
            last_seen: Mutex::new(Instant::now()),
            next_stream: AtomicU64::new(1),
            streams: Mutex::default(),
        });
        let mut map = self.map();
        if map.len() >= self.max {
            return Err(Full);
        }
        map.insert(session.id.clone(), Arc::clone(&session));
        Ok(session)
    }

    /// The live session named `id`, marked as used now; none when a verified caller opened it
    /// and `caller` is not that caller.
    pub(crate) fn get(&self, id: &str, caller: Option<&Auth>) -> Option<Arc<HttpSession>> {
        let session = self.map().get(id).cloned()?;
        if session.owner.is_some() && session.owner.as_deref() != caller.map(Auth::subject) {
            return None;
        }
        if session.is_idle(self.idle) {
            self.remove(id);
            return None;
        }
        *session.last_seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        Some(session)
    }

    /// Ends the session named `id`; `false` when there is none.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = self.map().remove(id);
        match removed {
            Some(session) => {
                session.close();
                true
            }
            None => false,
        }
    }

    /// Ends every session idle longer than the server allows.
    pub(crate) fn sweep(&self) {
        let idle: Vec<Arc<HttpSession>> = {
            let mut map = self.map();
            let expired: Vec<String> = map
                .iter()
                .filter(|(_, s)| s.is_idle(self.idle))
                .map(|(id, _)| id.clone())
                .collect();
            expired.iter().filter_map(|id| map.remove(id)).collect()
        };
        idle.iter().for_each(|session| session.close());
    }

    /// Ends every session (the server is shutting down).
    pub(crate) fn clear(&self) {
        let all: Vec<Arc<HttpSession>> = self.map().drain().map(|(_, s)| s).collect();
        all.iter().for_each(|session| session.close());
    }
}

impl Streams {
    /// Whether a client reads one of the streams (its reader holds it too).
    fn in_use(&self) -> bool {
        let held = |stream: &Arc<EventStream>| Arc::strong_count(stream) > 1;
        self.open.values().any(held) || self.standalone.as_ref().is_some_and(held)
    }
}

impl HttpSession {
    /// Whether the client has neither sent anything for `limit` nor anything to wait for: a
    /// session with a call in flight or a stream being read is in use, however long ago its
    /// last request came.
    fn is_idle(&self, limit: Duration) -> bool {
        let quiet = self
            .last_seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            > limit;
        quiet && self.session.is_idle() && !self.streams().in_use()
    }

    fn streams(&self) -> MutexGuard<'_, Streams> {
        self.streams.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The revision `initialize` settled on.
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.session.handshake.get().map(|h| h.version)
    }

    /// A new stream for one request: resumable (its events have ids) from 2025-11-25 on.
    pub(crate) fn open_stream(&self) -> Arc<EventStream> {
        let resumable = self
            .version()
            .is_some_and(ProtocolVersion::has_resumable_streams);
        if !resumable {
            return EventStream::new(None);
        }
        let number = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let stream = EventStream::new(Some(number));
        let mut streams = self.streams();
        // A stream read whole, or one nothing will be written to and that has nothing left to
        // read (a request answered at once), is of no use to a resuming client; of the rest
        // the oldest go first.
        streams
            .open
            .retain(|_, s| s.is_wanted(Arc::strong_count(s) - 1));
        while streams.open.len() >= KEPT_STREAMS
            && let Some(oldest) = streams.open.keys().min().copied()
        {
            streams.open.remove(&oldest);
        }
        streams.open.insert(number, Arc::clone(&stream));
        stream
    }

    /// The stream numbered `number`, to resume.
    pub(crate) fn stream(&self, number: u64) -> Option<Arc<EventStream>> {
        self.streams().open.get(&number).cloned()
    }

    /// Opens the GET stream; `None` when a client already reads one.
    pub(crate) fn open_standalone(&self) -> Option<Arc<EventStream>> {
        let mut streams = self.streams();
        if streams
            .standalone
            .as_ref()
            .is_some_and(|s| Arc::strong_count(s) > 1)
        {
            return None;
        }
        let stream = EventStream::new(None);
        streams.standalone = Some(Arc::clone(&stream));
        Some(stream)
    }

    /// Keeps the outlet that carries news to the GET stream (replacing an older one).
    pub(crate) fn keep_listener(&self, outlet: Outlet) {
        self.streams().listener = Some(outlet);
    }

    /// Ends the session: its calls see their `Cancellation` fire, its streams end.
    fn close(&self) {
        self.session.close();
        let mut streams = self.streams();
        for stream in streams.open.values() {
            stream.end();
        }
        if let Some(stream) = streams.standalone.take() {
            stream.end();
        }
        streams.open.clear();
    }
}
