//! Every refusal of the server, as a status and a JSON body
//! `{"status": 400, "error": "expected …, but found …"}`.

use crate::kit::game::Game;
use crate::present::Group;
use crate::table::TableError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why a request was refused.
#[derive(Debug)]
pub enum ApiError {
    /// No token, or one this table does not know: 401.
    Unauthorized(String),
    /// A body that is not an entry: 400.
    BadRequest(String),
    /// A decision that is not the token holder's to make: 403.
    Forbidden(String),
    /// A body longer than [`super::BODY_LIMIT`]: 413.
    TooLarge(String),
    /// A body that did not arrive within the server's time limit: 408.
    TimedOut(String),
    /// The log cannot be read or no longer replays: 500.
    Internal(String),
    /// An entry the engine refused: 409 for a sequence number already
    /// taken, 400 for a malformed line, 422 for an illegal event; with the
    /// legal alternatives, as commands and as events.
    Refused {
        status: StatusCode,
        error: String,
        commands: Vec<Group>,
        alternatives: serde_json::Value,
    },
    /// Any other status axum gives, with its own text.
    Other(StatusCode, String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TimedOut(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Refused { status, .. } | ApiError::Other(status, _) => *status,
        }
    }
}

impl ApiError {
    /// The refusal's words alone.
    pub fn into_text(self) -> String {
        match self {
            ApiError::Unauthorized(e)
            | ApiError::BadRequest(e)
            | ApiError::Forbidden(e)
            | ApiError::TooLarge(e)
            | ApiError::TimedOut(e)
            | ApiError::Internal(e)
            | ApiError::Other(_, e)
            | ApiError::Refused { error: e, .. } => e,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match self {
            ApiError::Unauthorized(error)
            | ApiError::BadRequest(error)
            | ApiError::Forbidden(error)
            | ApiError::TooLarge(error)
            | ApiError::TimedOut(error)
            | ApiError::Internal(error)
            | ApiError::Other(_, error) => {
                serde_json::json!({"status": status.as_u16(), "error": error})
            }
            ApiError::Refused {
                error,
                commands,
                alternatives,
                ..
            } => serde_json::json!({
                "status": status.as_u16(),
                "error": error,
                "commands": commands,
                "alternatives": alternatives,
            }),
        };
        (status, axum::Json(body)).into_response()
    }
}

impl<G: Game> From<TableError<G>> for ApiError {
    fn from(error: TableError<G>) -> ApiError {
        match error {
            TableError::Entry(e) => ApiError::BadRequest(e.to_string()),
            // The log on disk is not one the server can serve from.
            other => ApiError::Internal(other.to_string()),
        }
    }
}
