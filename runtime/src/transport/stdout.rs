//! Keeping stdout for the protocol: MCP over stdio allows nothing else on it, but tools (and the
//! libraries they call) print. While serving, the protocol writes to a duplicate of the real
//! stdout and descriptor 1 points at stderr; afterwards descriptor 1 is put back.

use std::io::{self, Write};

#[cfg(unix)]
pub(crate) struct Claimed {
    original: std::os::fd::OwnedFd,
}

#[cfg(unix)]
impl Claimed {
    pub(crate) fn claim() -> io::Result<Claimed> {
        io::stdout().flush()?;
        let original = rustix::io::dup(io::stdout())?;
        rustix::stdio::dup2_stdout(io::stderr())?;
        Ok(Claimed { original })
    }

    /// A writer to the real stdout.
    pub(crate) fn protocol(&self) -> io::Result<impl Write + Send + 'static> {
        Ok(std::fs::File::from(self.original.try_clone()?))
    }

    /// Points descriptor 1 back at the real stdout.
    pub(crate) fn release(self) {
        let _ = io::stdout().flush();
        let _ = rustix::stdio::dup2_stdout(&self.original);
    }
}

#[cfg(not(unix))]
pub(crate) struct Claimed;

#[cfg(not(unix))]
impl Claimed {
    pub(crate) fn claim() -> io::Result<Claimed> {
        Ok(Claimed)
    }

    pub(crate) fn protocol(&self) -> io::Result<impl Write + Send + 'static> {
        Ok(io::stdout())
    }

    pub(crate) fn release(self) {}
}
