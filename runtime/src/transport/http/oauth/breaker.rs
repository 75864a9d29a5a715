//! A circuit breaker in front of the authorization server: once a question to it failed (out
//! of reach, too slow, an error status), the requests that would ask it are answered 503 at
//! once for a while, rather than each waiting for a failure of its own; then one is let
//! through, and its answer closes the breaker or opens it again.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::transport::http::oauth::verifier::TokenError;

pub(crate) struct Breaker {
    phase: Mutex<Phase>,
}

enum Phase {
    /// Questions are asked.
    Closed,
    /// The last question failed, for this reason: none is asked until then.
    Open { until: Instant, why: String },
    /// One question is under way to see whether the server is back; the others wait for it
    /// to end, answered 503 meanwhile.
    Probing,
}

impl Breaker {
    pub(crate) fn new() -> Breaker {
        Breaker {
            phase: Mutex::new(Phase::Closed),
        }
    }

    fn phase(&self) -> MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a question may be asked now: `Err` with why not while the breaker is open, or
    /// while another question probes whether the server is back.
    pub(crate) fn admit(&self) -> Result<(), TokenError> {
        let mut phase = self.phase();
        match &*phase {
            Phase::Closed => Ok(()),
            Phase::Open { until, why } if Instant::now() < *until => Err(TokenError::unavailable(
                format!("{why}; the authorization server is not asked again for a while"),
            )),
            Phase::Open { .. } => {
                *phase = Phase::Probing;
                Ok(())
            }
            Phase::Probing => Err(TokenError::unavailable(
                "the authorization server failed moments ago; a question to see whether it is \
                 back is under way",
            )),
        }
    }

    /// How a question ended: one the server could not answer opens the breaker for `open_for`;
    /// any answer, a token found invalid too, closes it.
    pub(crate) fn record(&self, outcome: Result<(), &TokenError>, open_for: Duration) {
        let mut phase = self.phase();
        *phase = match outcome {
            Err(TokenError::Unavailable(why)) => Phase::Open {
                until: Instant::now() + open_for,
                why: why.clone(),
            },
            _ => Phase::Closed,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_then_one_probe_then_closed_or_open_again() {
        let breaker = Breaker::new();
        let down = TokenError::unavailable("the introspection could not be reached");
        let open_for = Duration::from_millis(30);
        assert!(breaker.admit().is_ok());
        breaker.record(Err(&down), open_for);
        assert!(matches!(breaker.admit(), Err(TokenError::Unavailable(_))));
        std::thread::sleep(open_for);
        // One probe; the others are refused while it is under way.
        assert!(breaker.admit().is_ok());
        assert!(breaker.admit().is_err());
        breaker.record(Err(&down), open_for);
        assert!(breaker.admit().is_err());
        std::thread::sleep(open_for);
        assert!(breaker.admit().is_ok());
        // A refusal is an answer: the server is back.
        breaker.record(Err(&TokenError::invalid("not active")), open_for);
        assert!(breaker.admit().is_ok());
        assert!(breaker.admit().is_ok());
    }
}
