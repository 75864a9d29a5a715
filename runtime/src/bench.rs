//! The hot path's pieces without a process or pipes, for the criterion benchmarks in the
//! `toolwright` crate's `benches/`. Compiled only with the `bench` feature; not part of the API.

use std::sync::{Arc, mpsc};

use serde_json::value::RawValue;

use crate::dispatch::Connection;
use crate::error::Result;
use crate::output::ToolOutput;
use crate::protocol::ProtocolVersion;
use crate::render;
use crate::server::{Server, Service};

/// One connection to a built server, its answers kept in memory.
pub struct Harness {
    service: Arc<Service>,
    connection: Connection,
    answers: mpsc::Receiver<Vec<u8>>,
    id: Box<RawValue>,
}

impl Harness {
    /// Builds `server` (schemas included) and opens a connection to it.
    pub fn new(server: Server) -> Result<Harness> {
        let service = Arc::new(server.build()?);
        let (outbox, answers) = mpsc::channel();
        let connection = Connection::new(service.clone(), outbox);
        Ok(Harness {
            service,
            connection,
            answers,
            id: RawValue::from_string("1".into()).expect("a JSON number"),
        })
    }

    /// Hands one line to the connection, as the reader does.
    pub fn send(&self, line: &[u8]) {
        self.connection.handle_line(line);
    }

    /// The next line the connection wrote, waiting for it.
    pub fn answer(&self) -> Vec<u8> {
        self.answers.recv().expect("the connection is open")
    }

    /// `line`'s answer: for requests that get exactly one.
    pub fn exchange(&self, line: &[u8]) -> Vec<u8> {
        self.send(line);
        self.answer()
    }

    /// The response line a call of `tool` writes for `output` under `version`.
    ///
    /// # Panics
    /// If the server has no tool called `tool`.
    pub fn shape(&self, tool: &str, version: ProtocolVersion, output: ToolOutput) -> Vec<u8> {
        let (index, _) = self.service.tool(tool).expect("a registered tool");
        render::call_result(&self.service, index, version, &self.id, output)
    }
}
