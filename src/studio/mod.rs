//! The studio: a sheet template or deck edited in the browser, each edit
//! an RFC 6902 JSON Patch, with the printed page and the checks of
//! `template check` beside it. [`app`] builds the router; it runs on the
//! table server's edge ([`crate::serve::edge`]: its time limits, caps,
//! headers and CSP).
//!
//! - `session.rs`: the [`Studio`], a file opened or created, its edits
//!   logged ([`edit_log`]) and synced before each answer, the file
//!   written whole and only when valid;
//! - [`bound`]: how deep and how large a patch may leave the template;
//! - `http.rs`: the routes;
//! - [`guard`]: the Host, Origin and token every request must carry;
//! - `print.rs`: the preview and the PDF, as `render` draws them;
//! - [`edit_log`]: the edit log's lines, read and replayed;
//! - [`figures`]: the quick simulation, paired games of the saved file
//!   against the file as opened and as it was before the last edit, under
//!   the rule options chosen for a sheet.
//!
//! Printing the address belongs to the command line (`src/cli/studio.rs`),
//! which starts the studio with [`crate::serve::edge::run`].

pub mod bound;
pub mod edit_log;
pub mod figures;
pub mod guard;
mod http;
mod print;
mod session;

pub use guard::Access;
pub use http::BODY_LIMIT;
pub use print::PrintError;
pub use session::{
    EditError, Opening, Standing, Start, Studio, StudioError, lock_path, template_text,
    unless_a_studio_edits, version_of,
};

use std::sync::{Arc, Mutex};

/// The router of the studio editing `studio`, reached as `access` says.
pub fn app(studio: Studio, access: Access) -> axum::Router {
    app_reporting(studio, access, Arc::new(|_| {}))
}

/// [`app`], telling `report` in one line what the person at the terminal
/// should know: a file changed outside the studio.
pub fn app_reporting(
    studio: Studio,
    access: Access,
    report: Arc<dyn Fn(String) + Send + Sync>,
) -> axum::Router {
    let figures = figures::Figures::new(studio.saved());
    http::router(Arc::new(http::Shared {
        studio: Mutex::new(studio),
        access,
        print: print::Print::default(),
        figures,
        report,
    }))
}
