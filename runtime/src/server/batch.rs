//! The answer to a JSON-RPC batch (2025-03-26 only): one array of every answer its requests
//! get, once the last of them is in: returned at once when none waits for a call, else sent by
//! the last call to finish. Notifications in a batch add nothing; a batch of notifications
//! alone gets no answer at all.

use std::sync::{Mutex, MutexGuard};

use crate::call::outlet::Outlet;

pub(crate) struct Batch {
    outlet: Outlet,
    state: Mutex<State>,
}

struct State {
    answers: Vec<Vec<u8>>,
    /// Answers still to come, plus one while the batch is being read.
    pending: usize,
}

impl Batch {
    /// A batch whose array goes to `outlet`; call [`Batch::close`] after its last element.
    pub(crate) fn new(outlet: Outlet) -> Batch {
        Batch {
            outlet,
            state: Mutex::new(State {
                answers: Vec::new(),
                pending: 1,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Announces an answer to come later.
    pub(crate) fn expect(&self) {
        self.lock().pending += 1;
    }

    /// An answer known now.
    pub(crate) fn add(&self, line: Vec<u8>) {
        self.lock().answers.push(without_newline(line));
    }

    /// An announced answer, arriving (or `None`: its call was cancelled).
    pub(crate) fn deliver(&self, line: Option<Vec<u8>>) {
        let mut state = self.lock();
        if let Some(line) = line {
            state.answers.push(without_newline(line));
        }
        state.pending -= 1;
        self.send_if_complete(state);
    }

    /// Ends the reading of the batch. When no answer is still to come, returns the array (or
    /// `None`, for a batch of notifications) instead of sending it.
    pub(crate) fn close(&self) -> Option<Option<Vec<u8>>> {
        let mut state = self.lock();
        state.pending -= 1;
        (state.pending == 0).then(|| array(&state.answers))
    }

    fn send_if_complete(&self, state: MutexGuard<'_, State>) {
        if state.pending > 0 {
            return;
        }
        self.outlet.finish(array(&state.answers), None);
    }
}

/// The answer lines as one array line; `None` when there are none.
fn array(answers: &[Vec<u8>]) -> Option<Vec<u8>> {
    if answers.is_empty() {
        return None;
    }
    let mut array = b"[".to_vec();
    array.extend(answers.join(&b","[..]));
    array.extend(b"]\n");
    Some(array)
}

fn without_newline(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_answered_once_all_answers_are_in() {
        let (lines, sent) = std::sync::mpsc::channel();
        let batch = Batch::new(Outlet::new("memory", lines));
        batch.add(b"1\n".to_vec());
        batch.expect();
        batch.expect();
        batch.deliver(None);
        assert_eq!(batch.close(), None, "an answer is still to come");
        assert!(sent.try_recv().is_err());
        batch.deliver(Some(b"2\n".to_vec()));
        assert_eq!(sent.try_recv().unwrap(), b"[1,2]\n");
    }

    #[test]
    fn a_batch_answered_at_once_is_returned() {
        let (lines, sent) = std::sync::mpsc::channel();
        let batch = Batch::new(Outlet::new("memory", lines));
        batch.add(b"1\n".to_vec());
        assert_eq!(batch.close(), Some(Some(b"[1]\n".to_vec())));
        let batch = Batch::new(Outlet::new("memory", std::sync::mpsc::channel().0));
        assert_eq!(
            batch.close(),
            Some(None),
            "notifications alone get no answer"
        );
        assert!(sent.try_recv().is_err());
    }
}
