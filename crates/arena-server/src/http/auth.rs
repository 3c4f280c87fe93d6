//! Who is asking: the `Student` and `Staff` extractors read the bearer
//! token from the request's headers, before any body is read, and refuse
//! with 401 (no valid token) or 403 (a student's token where staff's is
//! needed).

use std::sync::Arc;

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, StatusCode},
};

use crate::{course::accounts, http::connections as http, store::db, ApiError, App};

/// The student (or staff member) whose token the request carries.
pub struct Student(pub db::Student);

/// The student whose token the request carries, if it carries one (a
/// page anyone may open, that shows more to some); a wrong token is 401.
pub struct MaybeStudent(pub Option<db::Student>);

impl FromRequestParts<Arc<App>> for MaybeStudent {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        if !parts.headers.contains_key(header::AUTHORIZATION) {
            return Ok(MaybeStudent(None));
        }
        let Student(student) = Student::from_request_parts(parts, app).await?;
        Ok(MaybeStudent(Some(student)))
    }
}

/// A staff member (a `--staff` token).
pub struct Staff(#[allow(dead_code)] pub db::Student);

impl FromRequestParts<Arc<App>> for Student {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let unauthorized = || {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "a valid token is needed: send `Authorization: Bearer TOKEN` (the course staff give you yours)",
            )
        };
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .ok_or_else(unauthorized)?;
        let hash = accounts::token_hash(token);
        let student = app.db(move |db| db::student_by_token(db, &hash)).await?;
        if student.is_none() {
            // A wrong token (a guess, or one reset or removed): who sent it.
            let client = parts.extensions.get::<http::Client>().map_or("?".to_string(), |c| c.to_string());
            tracing::warn!(client = %client, "a request with an unknown token from {client}: {} {}", parts.method, parts.uri.path());
        }
        student.map(Student).ok_or_else(unauthorized)
    }
}

impl FromRequestParts<Arc<App>> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Student(member) = Student::from_request_parts(parts, app).await?;
        if !member.staff {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "this is for the course staff (a --staff token)",
            ));
        }
        Ok(Staff(member))
    }
}
