//! A group's lists (`GET /api/submissions`, `GET /api/scrimmages`) come a
//! page at a time, newest first (`?before=ID&limit=N`, 20 by default, 100
//! at most), with the list's total and the next page's address: another
//! group adding scrimmages to a victim's list, fetched by its page every
//! 2 s, cannot grow what each fetch carries.

use super::{add_student, get, submit, Server};
use crate::support::library;
use serde_json::Value;

/// The ids of `answer`'s `key` rows.
fn ids(answer: &Value, key: &str) -> Vec<i64> {
    answer[key]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect()
}

/// Pages `path` with `limit` from the newest: every page's ids, checking
/// each answer's total and that each page's `next` leads to the next one.
fn every_page(
    server: &Server,
    token: &str,
    path: &str,
    key: &str,
    limit: usize,
    total: u64,
) -> Vec<Vec<i64>> {
    let mut pages = Vec::new();
    let mut at = format!("{path}?limit={limit}");
    loop {
        let (code, answer) = get(server, &at, Some(token));
        assert_eq!(code, 200, "{at}: {answer}");
        assert_eq!(
            (answer["total"].as_u64(), answer["limit"].as_u64()),
            (Some(total), Some(limit as u64)),
            "{answer}"
        );
        pages.push(ids(&answer, key));
        match answer["next"].as_str() {
            Some(next) => at = next.to_string(),
            None => return pages,
        }
    }
}

#[test]
fn a_groups_submissions_and_scrimmages_come_a_page_at_a_time_newest_first() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    let server = Server::start(data.path(), &["--per-hour", "30", "--round-robin", "off"]);
    let easy = std::fs::read(library("easy")).unwrap();
    let mut sent = Vec::new();
    for _ in 0..5 {
        let (code, accepted) = submit(&server, Some(&alice), "file", &easy);
        assert_eq!(code, 201, "{accepted}");
        sent.push(accepted["id"].as_i64().unwrap());
    }
    let (code, bobs) = submit(&server, Some(&bob), "file", &easy);
    assert_eq!(code, 201, "{bobs}");
    sent.reverse();

    // The newest 2, then the next 2, then the last: alice's own only.
    let pages = every_page(&server, &alice, "/api/submissions", "submissions", 2, 5);
    assert_eq!(pages, [&sent[0..2], &sent[2..4], &sent[4..5]]);
    // By default, the newest 20; a limit over 100 is cut to 100; 0 is refused.
    let (_, first) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(
        (ids(&first, "submissions"), &first["limit"], &first["next"]),
        (sent.clone(), &20.into(), &Value::Null)
    );
    assert_eq!(first["uploads"]["left"], 25, "the rest of the answer is as before: {first}");
    assert_eq!(get(&server, "/api/submissions?limit=5000", Some(&alice)).1["limit"], 100);
    let (code, zero) = get(&server, "/api/submissions?limit=0", Some(&alice));
    assert_eq!(code, 400, "{zero}");
    assert!(zero["error"].as_str().unwrap().contains("ask for 1 to 100 rows"), "{zero}");

    // Bob's group challenged alice's 25 times (as staff could cancel them:
    // written straight into the database, none left to play).
    let (alices, bobs) = (sent[0], bobs["id"].as_i64().unwrap());
    let db = arena_server::store::db::open(data.path()).unwrap();
    for _ in 0..25 {
        db.execute(
            &format!(
                "INSERT INTO scrimmages (assignment, challenger, opponent, by_student, a, b, status)
                 SELECT 'trap', b.group_id, a.group_id, b.student, {bobs}, {alices}, 'cancelled'
                 FROM submissions a, submissions b WHERE a.id = {alices} AND b.id = {bobs}"
            ),
            [],
        )
        .unwrap();
    }
    let (code, newest) = get(&server, "/api/scrimmages", Some(&alice));
    assert_eq!(code, 200, "{newest}");
    let listed = ids(&newest, "scrimmages");
    assert_eq!((listed.len(), newest["total"].as_u64()), (20, Some(25)), "{newest}");
    assert!(listed.windows(2).all(|w| w[0] > w[1]), "newest first: {listed:?}");
    assert_eq!(newest["next"], format!("/api/scrimmages?before={}&limit=20", listed[19]));
    let pages = every_page(&server, &bob, "/api/scrimmages", "scrimmages", 20, 25);
    assert_eq!(pages.concat().len(), 25, "either side's list: {pages:?}");
    assert_eq!(pages[0], listed);
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 5]);
}
