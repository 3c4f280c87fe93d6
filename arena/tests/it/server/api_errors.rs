//! Every refusal of the API is its JSON error, `{"error": "..."}` as
//! `application/json`, with the right status: a path parameter, a query or
//! a JSON body that does not parse (axum's own rejections were plain text),
//! an unknown route or method, on the students' API and the staff's.

use super::{add_student, agent, Server};
use crate::support::{self, arena, stdout};
use serde_json::Value;

/// `method path` with `token` (and `body`, as JSON): the status, the
/// content type and the JSON answer (any other body fails the test).
fn ask(server: &Server, method: &str, path: &str, token: &str, body: Option<&str>) -> (u16, String, Value) {
    let url = format!("{}{path}", server.url);
    let bearer = format!("Bearer {token}");
    let response = match (method, body) {
        ("GET", _) => agent().get(&url).header("Authorization", &bearer).call(),
        ("DELETE", _) => agent().delete(&url).header("Authorization", &bearer).call(),
        (_, body) => agent()
            .post(&url)
            .header("Authorization", &bearer)
            .header("Content-Type", "application/json")
            .send(body.unwrap_or_default().as_bytes()),
    };
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    let text = response.body_mut().read_to_string().unwrap();
    let json =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:?}"));
    (status, kind.unwrap_or_default(), json)
}

#[test]
fn bad_paths_queries_bodies_routes_and_methods_get_the_apis_json_error() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let out =
        arena(&["serve", "add-student", "boss", "--staff", "--data", data.path().to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let staff = stdout(&out).trim().to_string();
    let server = Server::start(data.path(), &["--round-robin", "off"]);

    let cases = [
        ("GET", "/api/submissions/abc", &alice, None, 400, "/api/submissions/abc: "),
        ("GET", "/api/submissions/abc/replays", &alice, None, 400, "/api/submissions/abc/replays: "),
        ("GET", "/api/scrimmages/x/replays/game-1.html", &alice, None, 400, "/api/scrimmages/x/replays"),
        ("GET", "/api/leaderboard?limit=many", &alice, None, 400, "the query of /api/leaderboard: "),
        ("POST", "/api/scrimmages", &alice, Some("{\"opponent\": "), 400, "the request's body: "),
        ("GET", "/api/staff/notes/abc", &staff, None, 400, "/api/staff/notes/abc: "),
        ("POST", "/api/staff/scrimmages/abc/cancel", &staff, None, 400, "/api/staff/scrimmages/abc/cancel: "),
        ("POST", "/api/staff/deadline", &staff, Some("[1, 2"), 400, "the request's body: "),
        ("GET", "/api/nothing-here", &alice, None, 404, "no GET /api/nothing-here: docs/server.md"),
        ("DELETE", "/api/submissions", &alice, None, 405, "/api/submissions does not take DELETE"),
    ];
    for (method, path, token, body, status, start) in cases {
        let (got, kind, json) = ask(&server, method, path, token, body);
        assert_eq!(got, status, "{method} {path}: {json}");
        assert!(kind.starts_with("application/json"), "{method} {path}: {kind}");
        let error = json["error"].as_str().unwrap_or_else(|| panic!("{method} {path}: {json}"));
        assert!(error.starts_with(start) && !error.contains('\n'), "{method} {path}: {error}");
        assert_eq!(json.as_object().unwrap().len(), 1, "only `error`: {json}");
    }
    // A bad JSON body of a well-formed request: its field named.
    let (got, _, json) = ask(&server, "POST", "/api/staff/league", &staff, Some("{\"state\": 3"));
    assert_eq!(got, 400, "{json}");
    // A page's unknown address is still a plain 404.
    let page = agent().get(format!("{}/no-such-page", server.url)).call().unwrap();
    assert_eq!(page.status().as_u16(), 404);
}
