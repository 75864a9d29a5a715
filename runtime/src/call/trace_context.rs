//! The client's W3C trace context (SEP-414): `traceparent`, `tracestate` and `baggage`, from a
//! request's `_meta` (where they are the one exception to prefixed keys) or, over HTTP, from
//! the request's headers; made the parent of the request's span for OpenTelemetry.

use crate::protocol::meta::Meta;
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use opentelemetry::{Context, KeyValue, baggage::BaggageExt};
use serde::Deserialize;

/// A trace context as the client sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub(crate) struct TraceContext {
    pub(crate) traceparent: Option<String>,
    pub(crate) tracestate: Option<String>,
    pub(crate) baggage: Option<String>,
}

impl TraceContext {
    /// The trace context of a request's `_meta`, if it has a `traceparent`.
    pub(crate) fn from_meta(meta: &Meta<'_>) -> Option<TraceContext> {
        let text = |key| serde_json::from_str::<String>(meta.get(key)?.get()).ok();
        Some(TraceContext {
            traceparent: Some(text("traceparent")?),
            tracestate: text("tracestate"),
            baggage: text("baggage"),
        })
    }

    /// The client's span as a remote parent, with its baggage; `None` for a `traceparent`
    /// that is not version 00 with non-zero ids.
    pub(crate) fn to_otel(&self) -> Option<Context> {
        let traceparent = self.traceparent.as_deref()?;
        let mut parts = traceparent.trim().split('-');
        let (version, trace, span, flags) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
        if version != "00"
            || parts.next().is_some()
            || !hex(trace, 32)
            || !hex(span, 16)
            || !hex(flags, 2)
        {
            return None;
        }
        let trace_id = TraceId::from_hex(trace)
            .ok()
            .filter(|t| *t != TraceId::INVALID)?;
        let span_id = SpanId::from_hex(span)
            .ok()
            .filter(|s| *s != SpanId::INVALID)?;
        let flags = u8::from_str_radix(flags, 16).ok()?;
        let state = self
            .tracestate
            .as_deref()
            .and_then(|s| s.parse::<TraceState>().ok())
            .unwrap_or_default();
        let parent = SpanContext::new(trace_id, span_id, TraceFlags::new(flags), true, state);
        let context = Context::new().with_remote_span_context(parent);
        let baggage: Vec<KeyValue> = self
            .baggage
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter_map(|member| {
                let (key, value) = member.split(';').next()?.split_once('=')?;
                Some(KeyValue::new(
                    key.trim().to_owned(),
                    value.trim().to_owned(),
                ))
            })
            .collect();
        Some(match baggage.is_empty() {
            true => context,
            false => context.with_baggage(baggage),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::trace::TraceContextExt;

    fn parent(traceparent: &str) -> Option<Context> {
        TraceContext {
            traceparent: Some(traceparent.into()),
            tracestate: Some("vendor=1".into()),
            baggage: Some("user=ada;p=1, region = eu".into()),
        }
        .to_otel()
    }

    #[test]
    fn w3c_trace_context() {
        let context = parent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
        let span = context.span().span_context().clone();
        assert_eq!(
            span.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(span.span_id().to_string(), "00f067aa0ba902b7");
        assert!(span.is_sampled() && span.is_remote());
        assert_eq!(span.trace_state().get("vendor"), Some("1"));
        assert_eq!(
            context
                .baggage()
                .get("region")
                .map(|v| v.as_str().to_owned()),
            Some("eu".to_owned())
        );
        for bad in [
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "garbage",
        ] {
            assert!(parent(bad).is_none(), "{bad}");
        }
        let read = |text: &'static str| match serde_json::from_str(text).unwrap() {
            crate::protocol::meta::Read::Object(meta) => meta,
            other => panic!("{other:?}"),
        };
        let meta = read(
            r#"{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","progressToken":1}"#,
        );
        assert!(TraceContext::from_meta(&meta).is_some());
        assert!(TraceContext::from_meta(&read(r#"{"progressToken":1}"#)).is_none());
    }
}
