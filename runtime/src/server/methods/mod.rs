//! What a session does with each message: the methods it serves, a file each (or a few of a
//! kind), from `Session::handle`, the entry point every transport calls (`messages`), through
//! `dispatch` (requests by method and era) to the method's own file. Every `impl Session` is
//! here; the session's state is `session`, below. Each file imports only those above it in
//! this list.

mod task_opening;

mod calls;
mod lists;

mod skills;

mod reads;

mod completions;
mod tasks;

mod dispatch;

mod messages;
