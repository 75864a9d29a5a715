//! The events a stream keeps, oldest first: the first one held in place, a ring only from the
//! second on. Most requests have one event (their answer), and their stream then costs no
//! allocation of its own.

use std::collections::VecDeque;

use bytes::Bytes;

/// An event and its number in its stream.
pub(crate) type Event = (u64, Bytes);

#[derive(Default)]
pub(crate) enum Backlog {
    #[default]
    Empty,
    One(Event),
    /// Once a second event came; stays a ring when emptied, since a stream that had two is
    /// likely to have more.
    Many(VecDeque<Event>),
}

impl Backlog {
    pub(crate) fn push_back(&mut self, event: Event) {
        match self {
            Backlog::Empty => *self = Backlog::One(event),
            Backlog::One(_) => {
                let Backlog::One(first) = std::mem::take(self) else {
                    unreachable!("matched just above")
                };
                *self = Backlog::Many(VecDeque::from([first, event]));
            }
            Backlog::Many(events) => events.push_back(event),
        }
    }

    pub(crate) fn pop_front(&mut self) -> Option<Event> {
        match self {
            Backlog::Empty => None,
            Backlog::One(_) => match std::mem::take(self) {
                Backlog::One(event) => Some(event),
                _ => unreachable!("matched just above"),
            },
            Backlog::Many(events) => events.pop_front(),
        }
    }

    pub(crate) fn front(&self) -> Option<&Event> {
        self.get(0)
    }

    pub(crate) fn get(&self, at: usize) -> Option<&Event> {
        match self {
            Backlog::Empty => None,
            Backlog::One(event) => (at == 0).then_some(event),
            Backlog::Many(events) => events.get(at),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Backlog::Empty => 0,
            Backlog::One(_) => 1,
            Backlog::Many(events) => events.len(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn clear(&mut self) {
        match self {
            Backlog::Many(events) => events.clear(),
            _ => *self = Backlog::Empty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: u64) -> Event {
        (n, Bytes::from(n.to_string()))
    }

    #[test]
    fn keeps_events_in_order_whether_one_or_many() {
        let mut backlog = Backlog::default();
        assert!(backlog.is_empty() && backlog.front().is_none());
        backlog.push_back(event(1));
        assert!(matches!(backlog, Backlog::One(_)));
        assert_eq!(backlog.front().map(|e| e.0), Some(1));
        assert!(backlog.get(1).is_none());
        backlog.push_back(event(2));
        backlog.push_back(event(3));
        assert_eq!(backlog.len(), 3);
        assert_eq!(backlog.get(2).map(|e| e.0), Some(3));
        assert_eq!(backlog.pop_front().map(|e| e.0), Some(1));
        assert_eq!(backlog.front().map(|e| e.0), Some(2));
        backlog.clear();
        assert!(backlog.is_empty() && backlog.pop_front().is_none());

        let mut one = Backlog::default();
        one.push_back(event(7));
        assert_eq!(one.pop_front().map(|e| e.0), Some(7));
        assert!(one.is_empty() && matches!(one, Backlog::Empty));
    }
}
