//! The threads tools run on, started by the first call.
//!
//! Clients start every configured server at launch, and many servers are then only asked for
//! their tool list. Until its first call a server has no worker threads, and its answer to
//! `initialize` does not wait for them to start. Sync tools run on threads of the sync pool's
//! own (at most the server's `max_sync_threads`), so that none of them holds a thread of the
//! runtime's blocking pool, which `tokio::fs` and `spawn_blocking` need.

use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use crate::run::sync_pool::SyncPool;

pub(crate) struct Workers {
    started: OnceLock<Arc<Threads>>,
    /// Held while starting, so that two callers cannot both build a runtime.
    starting: Mutex<()>,
    /// The most threads sync tools hold at once.
    sync_threads: usize,
}

pub(crate) struct Threads {
    /// Taken out at shutdown.
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    handle: tokio::runtime::Handle,
    pub(crate) sync_pool: Arc<SyncPool>,
}

impl Threads {
    pub(crate) fn runtime(&self) -> &tokio::runtime::Handle {
        &self.handle
    }
}

impl Workers {
    /// Workers not started yet, whose sync tools will hold at most `sync_threads` threads.
    pub(crate) fn new(sync_threads: usize) -> Workers {
        Workers {
            started: OnceLock::new(),
            starting: Mutex::new(()),
            sync_threads,
        }
    }

    /// The runtime and the sync pool, started on first use.
    pub(crate) fn get(&self) -> io::Result<&Arc<Threads>> {
        if let Some(started) = self.started.get() {
            return Ok(started);
        }
        let _starting = self.starting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(started) = self.started.get() {
            return Ok(started);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("toolwright-worker")
            .build()?;
        let handle = runtime.handle().clone();
        let sync_pool = SyncPool::new(handle.clone(), self.sync_threads);
        let runtime = Mutex::new(Some(runtime));
        Ok(self.started.get_or_init(|| {
            Arc::new(Threads {
                runtime,
                handle,
                sync_pool,
            })
        }))
    }
}

impl Workers {
    /// Runs tools on the current runtime rather than one of their own, unless they have
    /// started already: a transport that runs on tokio (HTTP) shares its runtime with the
    /// tools. Asked on every request: once started, it costs one load.
    #[allow(dead_code, reason = "the HTTP transport is the one that runs on tokio")]
    pub(crate) fn adopt_current(&self) {
        if self.started.get().is_some() {
            return;
        }
        let handle = tokio::runtime::Handle::current();
        let _starting = self.starting.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self.started.get_or_init(|| {
            Arc::new(Threads {
                runtime: Mutex::new(None),
                sync_pool: SyncPool::new(handle.clone(), self.sync_threads),
                handle,
            })
        });
    }

    /// Stops the threads, abandoning whatever still runs: by now the transport has given calls
    /// their grace period, and waiting for a blocked tool thread could take forever.
    pub(crate) fn shutdown(&self) {
        let Some(started) = self.started.get() else {
            return;
        };
        started.sync_pool.close();
        let runtime = started
            .runtime
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(runtime) = runtime {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Threads {
    /// The sync pool's waiting runners end now. A runtime dropped the ordinary way waits for
    /// its blocking threads, which may be stuck in a tool for good.
    fn drop(&mut self) {
        self.sync_pool.close();
        let runtime = self
            .runtime
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(runtime) = runtime {
            runtime.shutdown_background();
        }
    }
}
