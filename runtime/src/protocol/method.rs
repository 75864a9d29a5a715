//! What a message asks for, read once when it is classified: its method, one of those the
//! server knows or any other name as sent, and the item it names (the tool, the prompt, the
//! URI or the task). Dispatch, the request's span, the HTTP edge's `Mcp-Name` check and the
//! streams that outlive their request all read these values; no other module spells a method
//! a client sends.

use std::borrow::Cow;

use crate::protocol::params::Params;

/// The methods the server knows, each with its name, written once: the enum, its parsing
/// and its names are made from this list.
macro_rules! methods {
    ($($method:ident => $name:literal,)*) => {
        /// A method a client sends: a request's, or a notification's.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub(crate) enum Method<'a> {
            $($method,)*
            /// A method the server does not know, as sent.
            Other(Cow<'a, str>),
        }

        impl<'a> Method<'a> {
            /// The method named `name`.
            pub(crate) fn parse(name: Cow<'a, str>) -> Method<'a> {
                match &*name {
                    $($name => Method::$method,)*
                    _ => Method::Other(name),
                }
            }

            /// Its name, as the client sent it.
            pub(crate) fn name(&self) -> &str {
                match self {
                    $(Method::$method => $name,)*
                    Method::Other(name) => name,
                }
            }
        }

        #[cfg(test)]
        const KNOWN: &[(Method<'static>, &str)] = &[$((Method::$method, $name),)*];
    };
}

methods! {
    Initialize => "initialize",
    Ping => "ping",
    ToolsList => "tools/list",
    ToolsCall => "tools/call",
    LoggingSetLevel => "logging/setLevel",
    PromptsList => "prompts/list",
    PromptsGet => "prompts/get",
    ResourcesList => "resources/list",
    ResourcesTemplatesList => "resources/templates/list",
    ResourcesRead => "resources/read",
    ResourcesSubscribe => "resources/subscribe",
    ResourcesUnsubscribe => "resources/unsubscribe",
    CompletionComplete => "completion/complete",
    SkillsList => "skills/list",
    SkillsGet => "skills/get",
    ResourcesDirectoryRead => "resources/directory/read",
    TasksGet => "tasks/get",
    TasksUpdate => "tasks/update",
    TasksCancel => "tasks/cancel",
    TasksResult => "tasks/result",
    TasksList => "tasks/list",
    ServerDiscover => "server/discover",
    SubscriptionsListen => "subscriptions/listen",
    Cancelled => "notifications/cancelled",
    RootsListChanged => "notifications/roots/list_changed",
    Initialized => "notifications/initialized",
}

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

impl Method<'_> {
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
        for (method, name) in KNOWN {
            assert_eq!(Method::parse(Cow::Borrowed(name)), *method);
            assert_eq!(method.name(), *name);
        }
        let other = Method::parse(Cow::Borrowed("tools/cal"));
        assert_eq!(other, Method::Other(Cow::Borrowed("tools/cal")));
        assert_eq!(other.name(), "tools/cal");
    }
}
