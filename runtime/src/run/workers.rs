//! The threads tools run on, started by the first call.
//!
//! Clients start every configured server at launch, and many servers are then only asked for
//! their tool list. Until its first call a server has no worker threads, and its answer to
//! `initialize` does not wait for them to start.

use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use crate::run::sync_pool::SyncPool;

#[derive(Default)]
pub(crate) struct Workers {
    started: OnceLock<Arc<Threads>>,
    /// Held while starting, so that two callers cannot both build a runtime.
    starting: Mutex<()>,
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
        let sync_pool = SyncPool::new(handle.clone());
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
    /// Runs tools on `handle`'s runtime rather than one of their own, unless they have started
    /// already: a transport that runs on tokio (HTTP) shares its runtime with the tools.
    #[allow(dead_code, reason = "the HTTP transport is the one that runs on tokio")]
    pub(crate) fn adopt(&self, handle: tokio::runtime::Handle) {
        if self.started.get().is_some() {
            return;
        }
        let _starting = self.starting.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self.started.get_or_init(|| {
            Arc::new(Threads {
                runtime: Mutex::new(None),
                sync_pool: SyncPool::new(handle.clone()),
                handle,
            })
        });
    }

    /// Stops the threads, abandoning whatever still runs: by now the transport has given calls
    /// their grace period, and waiting for a blocked tool thread could take forever.
    pub(crate) fn shutdown(&self) {
        let runtime = self
            .started
            .get()
            .and_then(|s| s.runtime.lock().unwrap_or_else(|e| e.into_inner()).take());
        if let Some(runtime) = runtime {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Threads {
    /// A runtime dropped the ordinary way waits for its blocking threads; these may be stuck in
    /// a tool for good.
    fn drop(&mut self) {
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
