//! Newline-delimited framing: a bounded line reader and the single writer of the output.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, TryRecvError};

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line is in the buffer (without its `\n` or `\r\n`).
    Complete,
    /// The line was longer than the limit; it was read and thrown away.
    TooLong,
    /// The input has ended.
    Eof,
}

/// Reads one line into `buf`, keeping at most `limit` bytes: a longer line is consumed to its
/// end without being stored, so an oversized message costs no memory.
pub(crate) fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            // A last line without a newline still counts.
            return Ok(match (too_long, buf.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, used, done) = match memchr::memchr(b'\n', available) {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long && buf.len() + chunk.len() > limit {
            too_long = true;
            buf.clear();
        }
        if !too_long {
            buf.extend_from_slice(chunk);
        }
        input.consume(used);
        if done {
            if too_long {
                return Ok(Line::TooLong);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Complete);
        }
    }
}

/// Writes every queued line to `output`, flushing whenever the queue runs dry: many answers
/// that finish together leave in one write, and none waits behind an idle buffer. The buffer is
/// small on purpose: a line at least its size (a tool list, a large result) is written straight
/// from its own memory instead of being copied through it.
/// Returns when every sender is gone, or when the output fails (the client went away).
pub(crate) fn write_lines(queue: Receiver<Vec<u8>>, output: impl Write) {
    let mut output = io::BufWriter::with_capacity(8 * 1024, output);
    while let Ok(line) = queue.recv() {
        if output.write_all(&line).is_err() {
            return;
        }
        loop {
            match queue.try_recv() {
                Ok(line) => {
                    if output.write_all(&line).is_err() {
                        return;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = output.flush();
                    return;
                }
            }
        }
        if output.flush().is_err() {
            return;
        }
    }
    let _ = output.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, String)> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader, &mut buf, limit).unwrap();
            let done = line == Line::Eof;
            out.push((line, String::from_utf8(buf.clone()).unwrap()));
            if done {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_drops_carriage_returns() {
        assert_eq!(
            lines(b"ab\r\ncdefgh\nlast", 100),
            vec![
                (Line::Complete, "ab".into()),
                (Line::Complete, "cdefgh".into()),
                (Line::Complete, "last".into()),
                (Line::Eof, "".into()),
            ]
        );
    }

    #[test]
    fn oversized_lines_are_skipped_whole() {
        assert_eq!(
            lines(b"0123456789\nok\n0123456789", 5),
            vec![
                (Line::TooLong, "".into()),
                (Line::Complete, "ok".into()),
                (Line::TooLong, "".into()),
                (Line::Eof, "".into()),
            ]
        );
    }

    #[test]
    fn writer_drains_the_queue_in_order() {
        let (tx, rx) = std::sync::mpsc::channel();
        for i in 0..3 {
            tx.send(format!("{i}\n").into_bytes()).unwrap();
        }
        drop(tx);
        let mut out = Vec::new();
        write_lines(rx, &mut out);
        assert_eq!(out, b"0\n1\n2\n");
    }
}
