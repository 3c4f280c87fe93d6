//! Live feeds' event streams, shared fairly. A stream holds its connection
//! for as long as a game lasts, so without a bound one client could hold
//! every connection the server may open, and every other client's page or
//! upload would wait in the kernel's queue. Streams are counted apart from
//! the other connections: at most half of the connections may be streams
//! (the rest are kept for pages and uploads), and each client address and
//! each token (a student's, staff's) at most `per_client` of them. A
//! stream past a bound is refused at once (`429`), and its connection
//! closed, so that the refused client holds nothing.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
};

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};

use crate::ApiError;

/// The bounds on open streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams open at once, over every client.
    pub total: usize,
    /// Streams one client address, or one token, may hold at once.
    pub per_client: usize,
}

impl StreamLimits {
    /// The bounds for a server of `connections` connections: half of them
    /// at most for streams, `per_client` each.
    pub fn of(connections: usize, per_client: usize) -> StreamLimits {
        StreamLimits { total: (connections / 2).max(1), per_client: per_client.max(1) }
    }
}

/// The streams open now, by client address and by token's owner.
#[derive(Debug)]
pub struct Streams {
    limits: StreamLimits,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    by_student: HashMap<i64, usize>,
}

impl Streams {
    pub fn new(limits: StreamLimits) -> Arc<Streams> {
        Arc::new(Streams { limits, open: Mutex::default() })
    }

    /// A stream for `client` (asking with the token of `student`, if any),
    /// held until the slot is dropped; or the refusal of one past a bound.
    pub fn open(self: &Arc<Self>, client: IpAddr, student: Option<i64>) -> Result<StreamSlot, Refused> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let per = self.limits.per_client;
        if open.total >= self.limits.total {
            return Err(Refused("the server is serving as many live feeds as it may: try again later"));
        }
        if open.by_address.get(&client).is_some_and(|&n| n >= per)
            || student.is_some_and(|s| open.by_student.get(&s).is_some_and(|&n| n >= per))
        {
            return Err(Refused("too many live feeds open at once: close one (a tab watching a game) first"));
        }
        open.total += 1;
        *open.by_address.entry(client).or_default() += 1;
        if let Some(student) = student {
            *open.by_student.entry(student).or_default() += 1;
        }
        Ok(StreamSlot { streams: self.clone(), client, student })
    }

    /// Streams open now (for tests and the logs).
    pub fn open_now(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

/// One open stream's place; given back when dropped (the stream ended, or
/// its client went away).
#[derive(Debug)]
pub struct StreamSlot {
    streams: Arc<Streams>,
    client: IpAddr,
    student: Option<i64>,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total = open.total.saturating_sub(1);
        let less = |count: Option<&mut usize>| count.map(|n| *n = n.saturating_sub(1));
        less(open.by_address.get_mut(&self.client));
        open.by_address.retain(|_, n| *n > 0);
        if let Some(student) = self.student {
            less(open.by_student.get_mut(&student));
            open.by_student.retain(|_, n| *n > 0);
        }
    }
}

/// A stream refused: `429` in the API's words, the connection closed.
#[derive(Debug)]
pub struct Refused(&'static str);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = ApiError::new(StatusCode::TOO_MANY_REQUESTS, self.0).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        headers.insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, last])
    }

    #[test]
    fn a_client_a_token_and_the_whole_server_each_hold_at_most_their_share() {
        let streams = Streams::new(StreamLimits::of(10, 2));
        assert_eq!(streams.limits, StreamLimits { total: 5, per_client: 2 });
        let a = [streams.open(address(1), None).unwrap(), streams.open(address(1), None).unwrap()];
        assert!(streams.open(address(1), None).is_err(), "a third from one address");
        // One token from two addresses: its two, then no more.
        let t = [streams.open(address(2), Some(7)).unwrap(), streams.open(address(3), Some(7)).unwrap()];
        assert!(streams.open(address(4), Some(7)).is_err(), "a third on one token");
        let other = streams.open(address(4), Some(8)).unwrap();
        assert_eq!(streams.open_now(), 5);
        assert!(streams.open(address(5), None).is_err(), "the streams' half of the connections is full");
        // Given back when dropped.
        drop(a);
        assert_eq!(streams.open_now(), 3);
        let again = streams.open(address(1), None).unwrap();
        drop((t, other, again));
        assert_eq!(streams.open_now(), 0);
        assert!(streams.open.lock().unwrap().by_address.is_empty());
        assert!(streams.open.lock().unwrap().by_student.is_empty());
    }

    #[test]
    fn a_refusal_is_429_in_the_apis_words_and_closes_the_connection() {
        let streams = Streams::new(StreamLimits::of(2, 1));
        let _held = streams.open(address(1), None).unwrap();
        let response = streams.open(address(1), None).unwrap_err().into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::CONNECTION], "close");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    }
}
