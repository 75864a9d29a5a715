//! The threads tools run on, started by the first call.
//!
//! Clients start every configured server at launch, and many servers are then only asked for
//! their tool list. Until its first call a server has no worker threads, and its answer to
//! `initialize` does not wait for them to start.

use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use crate::sync_pool::SyncPool;

#[derive(Default)]
pub(crate) struct Workers {
    started: OnceLock<Started>,
    /// Held while starting, so that two callers cannot both build a runtime.
    starting: Mutex<()>,
}

pub(crate) struct Started {
    runtime: tokio::runtime::Runtime,
    pub(crate) sync_pool: Arc<SyncPool>,
}

impl Started {
    pub(crate) fn runtime(&self) -> &tokio::runtime::Handle {
        self.runtime.handle()
    }
}

impl Workers {
    /// The runtime and the sync pool, started on first use.
    pub(crate) fn get(&self) -> io::Result<&Started> {
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
        let sync_pool = SyncPool::new(runtime.handle().clone());
        Ok(self.started.get_or_init(|| Started { runtime, sync_pool }))
    }
}

impl Drop for Workers {
    /// Abandons whatever still runs: by now the serving loop has given calls their grace period,
    /// and waiting for a blocked tool thread could take forever.
    fn drop(&mut self) {
        if let Some(started) = self.started.take() {
            started.runtime.shutdown_background();
        }
    }
}
