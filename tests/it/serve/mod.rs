//! The live table and the room: the router in-process, the binary over
//! real sockets, every answer and message pinned.

mod loopback;
mod room_recover;
mod serve_answers;
mod serve_app;
mod serve_bots;
mod serve_edge;
mod serve_join;
mod serve_messages;
mod serve_review;
mod serve_room;
mod serve_wire;

mod slow;
