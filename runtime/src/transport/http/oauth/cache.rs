//! What a verifier remembers of the tokens it checked: its answer (the caller, or why not), kept
//! under the SHA-256 of the resource and the token (never the token itself) until a time that
//! never passes the token's own expiry, at most [`MAX_KEPT`] at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use sha2::{Digest as _, Sha256};

use crate::call::auth::Auth;

/// The most answers kept at once. Beyond it the stale ones go, then every refusal (made-up
/// tokens must not push out the answers for real ones), then the answer that would go first.
const MAX_KEPT: usize = 10_000;

/// What was found of a token: its caller, or why it is not valid.
pub(crate) type Answer = Result<Auth, String>;

/// A token as presented to a resource, as the cache knows it: the same token presented to
/// another resource is another question.
pub(crate) type Digest = [u8; 32];

pub(crate) fn digest(resource: &str, token: &str) -> Digest {
    Sha256::new()
        .chain_update(resource.as_bytes())
        .chain_update([0])
        .chain_update(token.as_bytes())
        .finalize()
        .into()
}

/// The answers kept.
#[derive(Default)]
pub(crate) struct Answers {
    kept: Mutex<HashMap<Digest, Kept>>,
}

struct Kept {
    answer: Arc<Answer>,
    until: Instant,
    /// The token's `exp`, on the clock it is written for: an answer is not used past it even
    /// if the system clock jumps forward.
    expires: Option<SystemTime>,
    /// What the answer was found against (the JWKS a signature was checked with): an answer
    /// is used only while that is still what the verifier would check against.
    generation: u64,
}

impl Answers {
    fn kept(&self) -> MutexGuard<'_, HashMap<Digest, Kept>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer kept for `digest`, if it still holds and was found against `generation`.
    pub(crate) fn get(&self, digest: &Digest, generation: u64) -> Option<Answer> {
        let found = {
            let mut kept = self.kept();
            let entry = kept.get(digest)?;
            let holds = Instant::now() < entry.until
                && entry.expires.is_none_or(|end| SystemTime::now() < end)
                && entry.generation == generation;
            if !holds {
                kept.remove(digest);
                return None;
            }
            Arc::clone(&entry.answer)
        };
        Some(Answer::clone(&found))
    }

    /// Keeps `answer` for `digest` for `time`, and not past `expires` (none kept for a time of
    /// zero, or past its expiry already).
    pub(crate) fn keep(
        &self,
        digest: Digest,
        answer: Answer,
        time: Duration,
        expires: Option<SystemTime>,
        generation: u64,
    ) {
        let left = match expires {
            Some(end) => match end.duration_since(SystemTime::now()) {
                Ok(left) => time.min(left),
                Err(_) => return,
            },
            None => time,
        };
        let now = Instant::now();
        let Some(until) = now.checked_add(left).filter(|_| !left.is_zero()) else {
            return;
        };
        let mut kept = self.kept();
        if kept.len() >= MAX_KEPT {
            kept.retain(|_, entry| entry.until > now);
        }
        if kept.len() >= MAX_KEPT {
            kept.retain(|_, entry| entry.answer.is_ok());
        }
        if kept.len() >= MAX_KEPT
            && let Some(first) = kept.iter().min_by_key(|(_, e)| e.until).map(|(k, _)| *k)
        {
            kept.remove(&first);
        }
        let answer = Arc::new(answer);
        let entry = Kept {
            answer,
            until,
            expires,
            generation,
        };
        kept.insert(digest, entry);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.kept().len()
    }
}

/// Seconds since the Unix epoch, for tests' claims.
#[cfg(test)]
pub(crate) fn tests_now() -> u64 {
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH);
    now.map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn an_answer_holds_for_its_time_its_expiry_and_its_generation() {
        let answers = Answers::default();
        let ada = || Ok(Auth::new("ada"));
        let token = digest("https://mcp/mcp", "t");
        answers.keep(token, ada(), MINUTE, None, 3);
        assert_eq!(answers.get(&token, 3), Some(ada()));
        // The same token for another resource is another question.
        assert_eq!(answers.get(&digest("https://mcp/other", "t"), 3), None);
        // Found against another generation: not used, and gone.
        assert_eq!(answers.get(&token, 4), None);
        assert_eq!(answers.get(&token, 3), None);
        // Past the token's expiry, nothing is kept.
        let past = SystemTime::now() - Duration::from_secs(1);
        answers.keep(token, ada(), MINUTE, Some(past), 3);
        assert_eq!(answers.get(&token, 3), None);
        // The expiry bounds the time.
        let soon = SystemTime::now() + Duration::from_millis(30);
        answers.keep(token, ada(), MINUTE, Some(soon), 3);
        assert_eq!(answers.get(&token, 3), Some(ada()));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(answers.get(&token, 3), None);
        answers.keep(token, ada(), Duration::ZERO, None, 3);
        assert_eq!(answers.get(&token, 3), None);
    }

    #[test]
    fn refusals_go_before_answers_when_full() {
        let answers = Answers::default();
        for n in 0..MAX_KEPT {
            let refusal = Err(format!("made up {n}"));
            answers.keep(digest("r", &n.to_string()), refusal, MINUTE, None, 0);
        }
        let real = digest("r", "real");
        answers.keep(real, Ok(Auth::new("ada")), MINUTE, None, 0);
        assert_eq!(answers.len(), 1);
        assert!(answers.get(&real, 0).is_some());
    }
}
