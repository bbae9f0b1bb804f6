//! Output: where rendered bytes go. Files are written whole and atomically
//! ([`atomic`]), never over an input or another output ([`collisions`]);
//! stdout ends quietly when its reader goes away ([`stdout`]).

pub mod atomic;
pub mod collisions;
pub mod stdout;
