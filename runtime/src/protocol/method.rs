//! What a message asks for, read once when it is classified: its method, one of those the
//! server knows or any other name as sent, and the item it names (the tool, the prompt, the
//! URI or the task). Dispatch, the request's span, the HTTP edge's `Mcp-Name` check and the
//! streams that outlive their request all read these values; no other module spells a method
//! a client sends.

use std::borrow::Cow;

use crate::protocol::params::Params;

/// A method a client sends: a request's, or a notification's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Method<'a> {
    Initialize,
    Ping,
    ToolsList,
    ToolsCall,
    LoggingSetLevel,
    PromptsList,
    PromptsGet,
    ResourcesList,
    ResourcesTemplatesList,
    ResourcesRead,
    ResourcesSubscribe,
    ResourcesUnsubscribe,
    CompletionComplete,
    SkillsList,
    SkillsGet,
    ResourcesDirectoryRead,
    TasksGet,
    TasksUpdate,
    TasksCancel,
    TasksResult,
    TasksList,
    ServerDiscover,
    SubscriptionsListen,
    Cancelled,
    RootsListChanged,
    Initialized,
    /// A method the server does not know, as sent.
    Other(Cow<'a, str>),
}

/// Every method the server knows, with its name.
static KNOWN: [(Method<'static>, &str); 26] = [
    (Method::Initialize, "initialize"),
    (Method::Ping, "ping"),
    (Method::ToolsList, "tools/list"),
    (Method::ToolsCall, "tools/call"),
    (Method::LoggingSetLevel, "logging/setLevel"),
    (Method::PromptsList, "prompts/list"),
    (Method::PromptsGet, "prompts/get"),
    (Method::ResourcesList, "resources/list"),
    (Method::ResourcesTemplatesList, "resources/templates/list"),
    (Method::ResourcesRead, "resources/read"),
    (Method::ResourcesSubscribe, "resources/subscribe"),
    (Method::ResourcesUnsubscribe, "resources/unsubscribe"),
    (Method::CompletionComplete, "completion/complete"),
    (Method::SkillsList, "skills/list"),
    (Method::SkillsGet, "skills/get"),
    (Method::ResourcesDirectoryRead, "resources/directory/read"),
    (Method::TasksGet, "tasks/get"),
    (Method::TasksUpdate, "tasks/update"),
    (Method::TasksCancel, "tasks/cancel"),
    (Method::TasksResult, "tasks/result"),
    (Method::TasksList, "tasks/list"),
    (Method::ServerDiscover, "server/discover"),
    (Method::SubscriptionsListen, "subscriptions/listen"),
    (Method::Cancelled, "notifications/cancelled"),
    (Method::RootsListChanged, "notifications/roots/list_changed"),
    (Method::Initialized, "notifications/initialized"),
];

/// What a request names, as its span, the `Mcp-Name` header and the scope check see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// `tools/call`: the tool.
    Tool(&'a str),
    /// `prompts/get`: the prompt.
    Prompt(&'a str),
    /// `resources/read`, `resources/subscribe`, `resources/unsubscribe`: the URI.
    Uri(&'a str),
    /// `tasks/get`, `tasks/update`, `tasks/cancel`, `tasks/result`: the task's id.
    Task(&'a str),
    /// Nothing, or a request without the field that would name it.
    None,
}

impl<'a> Method<'a> {
    /// The method named `name`.
    pub(crate) fn parse(name: Cow<'a, str>) -> Method<'a> {
        match KNOWN.iter().find(|(_, known)| *known == name) {
            Some((method, _)) => method.clone(),
            None => Method::Other(name),
        }
    }

    /// Its name, as the client sent it.
    pub(crate) fn name(&self) -> &str {
        match self {
            Method::Other(name) => name,
            known => KNOWN
                .iter()
                .find(|(method, _)| method == known)
                .map(|(_, name)| *name)
                .expect("every known method has a name"),
        }
    }

    /// What a request of this method with `params` names.
    pub(crate) fn target<'p>(&self, params: &'p Params<'_>) -> Target<'p> {
        let named = match self {
            Method::ToolsCall => params.name.as_deref().map(Target::Tool),
            Method::PromptsGet => params.name.as_deref().map(Target::Prompt),
            Method::ResourcesRead | Method::ResourcesSubscribe | Method::ResourcesUnsubscribe => {
                params.uri.as_deref().map(Target::Uri)
            }
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel | Method::TasksResult => {
                params.rare().task_id.as_deref().map(Target::Task)
            }
            _ => None,
        };
        named.unwrap_or(Target::None)
    }

    /// One of the `tasks/*` methods.
    pub(crate) fn is_task_method(&self) -> bool {
        matches!(
            self,
            Method::TasksGet
                | Method::TasksUpdate
                | Method::TasksCancel
                | Method::TasksResult
                | Method::TasksList
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_method_reads_back_as_itself() {
        for (method, name) in &KNOWN {
            assert_eq!(Method::parse(Cow::Borrowed(name)), *method);
            assert_eq!(method.name(), *name);
        }
        let other = Method::parse(Cow::Borrowed("tools/cal"));
        assert_eq!(other, Method::Other(Cow::Borrowed("tools/cal")));
        assert_eq!(other.name(), "tools/cal");
    }
}
