//! MCP over stdio, or any pair of byte streams: the calling thread reads lines, one thread
//! writes, tools run on the server's workers. The reader never runs tool code, so a slow tool
//! cannot hold up `ping` or other calls.
//!
//! When the input ends, the calls in flight see their `Cancellation` fire at once and get the
//! server's grace period to finish (a call that finishes in time is answered: a pipeline may
//! still read the output); then the server returns, and its program can exit 0.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use crate::call::outlet::Outlet;
use crate::server::engine::Engine;
use crate::server::session::Session;
use crate::server::{Result, Server};
use crate::transport::framing::{self, Line};
use crate::transport::stdout;

/// How long the writer may take to flush what is left after the input ended.
const FLUSH_GRACE: Duration = Duration::from_millis(250);

impl Server {
    /// Serves MCP over stdin and stdout until stdin closes.
    ///
    /// While it serves, the protocol writes to its own copy of stdout and file descriptor 1 is
    /// pointed at stderr (on Unix), so a `println!` in a tool goes to stderr instead of
    /// corrupting the stream.
    pub fn serve_stdio(self) -> Result<()> {
        let engine = self.build()?;
        let stdout = stdout::Claimed::claim()?;
        let result = serve(engine, std::io::stdin().lock(), stdout.protocol()?);
        stdout.release();
        result
    }

    /// Serves MCP over any byte streams until `input` ends (a socket, a pipe).
    pub fn serve<R: BufRead, W: Write + Send + 'static>(self, input: R, output: W) -> Result<()> {
        serve(self.build()?, input, output)
    }
}

fn serve(
    engine: Arc<Engine>,
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<()> {
    let (queue, lines) = mpsc::channel::<Vec<u8>>();
    let (flushed, writer_done) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("toolwright-writer".into())
        .spawn(move || {
            framing::write_lines(lines, output);
            let _ = flushed.send(());
        })?;

    let limit = engine.limits.max_message_size;
    let session = Session::new(Arc::clone(&engine));
    let outlet = Outlet::new("stdio", queue);
    let mut buf = Vec::with_capacity(4096);
    let read_error = loop {
        match framing::read_line(&mut input, &mut buf, limit) {
            Ok(Line::Complete) if buf.iter().all(u8::is_ascii_whitespace) => {}
            Ok(Line::Complete) => session.handle(&buf, &outlet).deliver(&outlet),
            Ok(Line::TooLong) => session.too_long().deliver(&outlet),
            Ok(Line::Eof) => break None,
            Err(e) => break Some(e),
        }
    };

    // The input is closed: signal what runs, give it a moment to finish, abandon the rest.
    session.close();
    engine.running.signal(None);
    engine.in_flight.wait_idle(engine.limits.shutdown_grace);
    engine.workers.shutdown();
    drop((session, outlet));
    // Abandoned blocking calls may still hold the outlet, so wait for the flush, not for them.
    let _ = writer_done.recv_timeout(FLUSH_GRACE);
    match read_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
