//! Where the answer to a request goes: straight to the writer, or into the array that answers a
//! JSON-RPC batch (2025-03-26), which is written once every request in it has been answered.

use std::sync::{Arc, Mutex};

use crate::dispatch::Outbox;

#[derive(Clone)]
pub(crate) enum Reply {
    Direct(Outbox),
    Batch(Arc<BatchReply>),
}

pub(crate) struct BatchReply {
    outbox: Outbox,
    state: Mutex<BatchState>,
}

struct BatchState {
    answers: Vec<Vec<u8>>,
    /// Answers still to come, plus one while the batch is being read.
    pending: usize,
}

impl Reply {
    /// A reply that collects a batch's answers; call [`Reply::close`] after the last element.
    pub(crate) fn batch(outbox: Outbox) -> Reply {
        Reply::Batch(Arc::new(BatchReply {
            outbox,
            state: Mutex::new(BatchState {
                answers: Vec::new(),
                pending: 1,
            }),
        }))
    }

    /// Announces an answer to come (batches count them).
    pub(crate) fn expect(&self) {
        if let Reply::Batch(batch) = self {
            batch.lock().pending += 1;
        }
    }

    /// Delivers one answer line.
    pub(crate) fn send(&self, line: Vec<u8>) {
        match self {
            // A closed writer means the client is gone; there is no one left to tell.
            Reply::Direct(outbox) => {
                let _ = outbox.send(line);
            }
            Reply::Batch(batch) => batch.done(Some(line)),
        }
    }

    /// An announced answer that will not come (its request was cancelled).
    pub(crate) fn skip(&self) {
        if let Reply::Batch(batch) = self {
            batch.done(None);
        }
    }

    /// Ends the reading of a batch.
    pub(crate) fn close(&self) {
        self.skip();
    }
}

impl BatchReply {
    fn lock(&self) -> std::sync::MutexGuard<'_, BatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn done(&self, line: Option<Vec<u8>>) {
        let mut state = self.lock();
        if let Some(mut line) = line {
            line.pop(); // the newline: the array gets one at its end
            state.answers.push(line);
        }
        state.pending -= 1;
        if state.pending > 0 || state.answers.is_empty() {
            return;
        }
        let mut array = b"[".to_vec();
        array.extend(state.answers.join(&b","[..]));
        array.extend(b"]\n");
        let _ = self.outbox.send(array);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_answered_once_all_answers_are_in() {
        let (outbox, lines) = std::sync::mpsc::channel();
        let reply = Reply::batch(outbox);
        for _ in 0..3 {
            reply.expect();
        }
        reply.send(b"1\n".to_vec());
        reply.skip();
        reply.close();
        assert!(lines.try_recv().is_err());
        reply.send(b"2\n".to_vec());
        assert_eq!(lines.try_recv().unwrap(), b"[1,2]\n");
    }

    #[test]
    fn a_batch_of_notifications_is_not_answered() {
        let (outbox, lines) = std::sync::mpsc::channel();
        let reply = Reply::batch(outbox);
        reply.close();
        assert!(lines.try_recv().is_err());
    }
}
