//! The way back of a call: its output shaped for its revision (or, for a 2026-07-28 round that
//! ended on asks, `input_required` with the sealed state), its span ended, its id freed, and its
//! answer delivered through its gate, unless the call was cancelled.

use std::sync::Arc;

use crate::call::auth::Auth;
use crate::call::record::CallRecord;
use crate::call::span::{Outcome, RequestSpan};
use crate::run::call::Finish;
use crate::run::inflight::{Admitted, OpenRequests};
use crate::run::served::ServedTool;
use crate::server::batch::Batch;
use crate::server::engine::Engine;
use crate::tasks::record::Ending;
use crate::tools::ToolOutput;
use crate::tools::output::{InputRequired, Repr};
use crate::tools::render::{self, Rendered, Renderer};

/// Shapes a call's output for its revision and delivers it, unless the call was cancelled:
/// through the call's outlet, or into its batch.
pub(crate) struct Delivery {
    pub(crate) engine: Arc<Engine>,
    /// Where the call's id is kept while it runs (`None`: nowhere, see `Session::call_ids`).
    pub(crate) open: Option<Arc<OpenRequests>>,
    pub(crate) batch: Option<Arc<Batch>>,
    /// Counts the call in flight until its answer is delivered (`None`: a request that does
    /// not count).
    pub(crate) _admitted: Option<Admitted>,
}

impl Finish for Delivery {
    fn finish(self, tool: &ServedTool, record: &CallRecord, mut output: ToolOutput) {
        // Links to a mounted server's own resources point where this server serves them.
        if let Some(mount) = &tool.spec.header.mount {
            output.rewrite_uris(&|uri| self.engine.outward(mount, uri));
        }
        // A masked error's event belongs to the call's span. The span closes when this
        // function's locals drop, before the call stops counting as in flight (`self`).
        let span = record.span.take();
        let _in_span = span.span().enter();
        let outcome = outcome(&output);
        // Only an error that asks for URLs reads the client's capabilities.
        let takes_urls = output.is_chosen() && record.declared("elicitation.url");
        let renderer = Renderer {
            tool: &tool.compiled,
            name: &tool.spec.header.name,
            expose_internal_errors: self.engine.expose_internal_errors,
            server_meta: &self.engine.server_meta,
            client_takes_urls: takes_urls,
        };
        if let Some(run) = record.task_run() {
            // A task: its request was answered with it; the output is its result.
            let ending = match render::task_ending(&renderer, record.version, output) {
                Ok(result) => Ending::Completed(result),
                Err(error) => Ending::Failed(error),
            };
            // In flight until the result is stored.
            self.engine.running.remove(&run.id);
            run.end(ending, move || drop(self));
            return;
        }
        let rendered = match output.into_round(record.version, takes_urls) {
            Ok(input) => Rendered::result(round_line(&self.engine, record, input)),
            Err(output) => render::call_result(&renderer, record.version, &record.id, output),
        };
        self.send(record, &span, rendered, outcome);
    }
}

impl Delivery {
    /// Sends a request's answer through its gate (unless it was cancelled), into its batch or
    /// through its outlet, and ends its span: with `outcome`, unless the answer is an error,
    /// whose code the span records.
    pub(crate) fn send(
        &self,
        record: &CallRecord,
        span: &RequestSpan,
        rendered: Rendered,
        outcome: Outcome,
    ) {
        answer(
            self.open.as_deref(),
            self.batch.as_ref(),
            record,
            span,
            rendered,
            outcome,
        );
    }
}

/// The answer of a 2026-07-28 round: `input_required` with its asks and, for a request of an
/// item that asks in rounds, the state sealed with the answers its run used.
pub(crate) fn round_line(
    engine: &Engine,
    record: &CallRecord,
    mut input: InputRequired,
) -> Vec<u8> {
    let state = record.asking.as_deref().and_then(|asking| {
        let (target, arguments) = asking.bound_to()?;
        input.answers.extend(asking.take_used());
        let caller = record.outlet.extensions().and_then(|e| e.get::<Auth>());
        let caller = caller.map(Auth::subject);
        Some(engine.sealer.seal(target, arguments, caller, input.answers))
    });
    render::input_required(
        &engine.server_meta,
        &record.id,
        &input.requests,
        state.as_deref(),
    )
}

/// Sends a request's answer through its gate (unless it was cancelled or answered already),
/// into its batch or through its outlet, and ends its span: with `outcome`, unless the answer
/// is an error, whose code the span records. `open` frees its id. Returns whether the answer
/// went out.
pub(crate) fn answer(
    open: Option<&OpenRequests>,
    batch: Option<&Arc<Batch>>,
    record: &CallRecord,
    span: &RequestSpan,
    rendered: Rendered,
    outcome: Outcome,
) -> bool {
    let Rendered { line, error_code } = rendered;
    let outcome = error_code.map_or(outcome, Outcome::Error);
    // The id is free again as soon as the client can read the answer.
    if let Some(open) = open {
        open.remove(record);
    }
    if record.gate.is_answered() {
        // Answered already, with the error that kept the call from becoming a task.
        return false;
    }
    let mut line = Some(line);
    // The span ends before the client can read the answer (and follow up on it).
    let sent = record.gate.finish(|| {
        span.end(outcome);
        match batch {
            Some(batch) => batch.deliver(line.take()),
            None => record.outlet.finish(line.take(), error_code),
        }
    });
    if !sent {
        span.end(Outcome::Cancelled);
        match batch {
            Some(batch) => batch.deliver(None),
            None => record.outlet.finish(None, None),
        }
    }
    sent
}

/// How a call's output ends its request, as its span records it (unless its response is an
/// error, whose code the span records).
fn outcome(output: &ToolOutput) -> Outcome {
    match &output.repr {
        Repr::Result { is_error, .. } if !is_error => Outcome::Ok,
        Repr::InputRequired(_) => Outcome::InputRequired,
        _ => Outcome::ToolError,
    }
}
