//! The serving loop: the calling thread reads, one thread writes, tools run on the connection's
//! workers.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use crate::dispatch::Connection;
use crate::error::Result;
use crate::server::Service;
use crate::transport::{self, Line};

/// How long the writer may take to flush what is left after the input ended.
const FLUSH_GRACE: Duration = Duration::from_millis(250);

pub(crate) fn serve(
    service: Arc<Service>,
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<()> {
    let (outbox, queue) = mpsc::channel::<Vec<u8>>();
    let (flushed, writer_done) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("toolwright-writer".into())
        .spawn(move || {
            transport::write_lines(queue, output);
            let _ = flushed.send(());
        })?;

    let limit = service.limits.max_message_size;
    let grace = service.limits.shutdown_grace;
    let connection = Connection::new(service, outbox);
    let mut buf = Vec::with_capacity(4096);
    let read_error = loop {
        match transport::read_line(&mut input, &mut buf, limit) {
            Ok(Line::Complete) if buf.iter().all(u8::is_ascii_whitespace) => {}
            Ok(Line::Complete) => connection.handle_line(&buf),
            Ok(Line::TooLong) => connection.too_long(),
            Ok(Line::Eof) => break None,
            Err(e) => break Some(e),
        }
    };

    // The input is closed: give running calls a moment to answer, then abandon the rest.
    connection.inflight.wait_idle(grace);
    drop(connection);
    // Abandoned blocking calls may still hold a sender, so wait for the flush, not the senders.
    let _ = writer_done.recv_timeout(FLUSH_GRACE);
    match read_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
