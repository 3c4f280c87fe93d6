//! A board for a field of thousands (issue 37): the leaderboard a page at a
//! time (bounded, searchable, around a group), the crosstable one group at
//! a time, and a restart that answers with the stored ratings.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{agent, dump, get, Server};
use crate::support::{self, library};

/// A data folder with `students` graded students of Easy and `games`
/// league games among them (as `arena measure server` prepares its class),
/// the league paused so that the board stands still.
fn field(students: usize, games: usize) -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(library("easy")).unwrap();
    arena_server::bench::prepare_class(data.path(), &bytes, students, games).unwrap();
    let db = arena_server::store::db::open(data.path()).unwrap();
    arena_server::store::db::set_setting(&db, arena_server::work::league::LEAGUE_SETTING, "paused").unwrap();
    data
}

fn names(rows: &Value, key: &str) -> Vec<String> {
    rows.as_array().unwrap().iter().map(|r| r[key].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_field_of_250_comes_a_page_at_a_time_and_its_crosstable_a_group_at_a_time() {
    let data = field(250, 250 * 30);
    let server = Server::start(data.path(), &[]);

    // The first page: 200 of each list, and how many there are.
    let (code, board) = get(&server, "/api/leaderboard", None);
    assert_eq!(code, 200, "{board}");
    assert_eq!(board["groups"].as_array().unwrap().len(), 200);
    let standings = &board["round_robin"]["standings"];
    assert_eq!(standings["rows"].as_array().unwrap().len(), 200);
    assert_eq!((board["page"]["groups"].as_u64(), board["page"]["ranked"].as_u64()), (Some(250), Some(250)));
    assert!(standings["games"].as_u64().unwrap() >= 7000, "{}", standings["games"]);
    let ranks: Vec<u64> =
        standings["rows"].as_array().unwrap().iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, (1..=200).collect::<Vec<_>>());

    // The rest, then a page asked larger than the bound.
    let (_, rest) = get(&server, "/api/leaderboard?offset=200", None);
    let rows = rest["round_robin"]["standings"]["rows"].as_array().unwrap();
    assert_eq!(
        rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect::<Vec<_>>(),
        (201..=250).collect::<Vec<_>>()
    );
    assert_eq!(rest["groups"].as_array().unwrap().len(), 50);
    let (_, big) = get(&server, "/api/leaderboard?limit=100000", None);
    assert_eq!(big["groups"].as_array().unwrap().len(), 200);
    let (code, refused) = get(&server, "/api/leaderboard?limit=0", None);
    assert_eq!(code, 400, "{refused}");

    // A search: only the names that hold it, in both lists.
    let (_, found) = get(&server, "/api/leaderboard?q=STUDENT-01", None);
    let expected: Vec<String> = (10..20).map(|i| format!("student-{i:03}")).collect();
    assert_eq!(names(&found["groups"], "group"), expected);
    let mut ranked = names(&found["round_robin"]["standings"]["rows"], "name");
    ranked.sort();
    assert_eq!(ranked, expected);
    assert_eq!(found["page"]["ranked"], 10);

    // Around a group: its rows in the pages that hold them.
    let (_, around) = get(&server, "/api/leaderboard?group=student-123&limit=11", None);
    let groups = names(&around["groups"], "group");
    assert_eq!(groups.len(), 11);
    assert_eq!(groups[5], "student-123", "{groups:?}");
    assert!(names(&around["round_robin"]["standings"]["rows"], "name").contains(&"student-123".to_string()));
    // Where each list's page starts: the groups by name (student-123 is the
    // 124th), the ranked rows by rank (the first row's).
    assert_eq!(around["page"]["starts"]["groups"], 118, "{}", around["page"]);
    let first_rank = around["round_robin"]["standings"]["rows"][0]["rank"].as_u64().unwrap();
    assert_eq!(around["page"]["starts"]["ranked"], first_rank - 1, "{}", around["page"]);
    assert_eq!(rest["page"]["starts"]["ranked"], 200);
    let (code, missing) = get(&server, "/api/leaderboard?group=nobody", None);
    assert_eq!(code, 404, "{missing}");
    assert!(missing["error"].as_str().unwrap().contains("nobody"), "{missing}");

    // The crosstable: too large whole; one group's row with whom it met.
    let (code, whole) = get(&server, "/api/leaderboard/crosstable", None);
    assert_eq!(code, 400, "{whole}");
    assert!(whole["error"].as_str().unwrap().contains("?group=NAME"), "{whole}");
    let (code, one) = get(&server, "/api/leaderboard/crosstable?group=student-005", None);
    assert_eq!(code, 200, "{one}");
    let me = one["rows"].as_array().unwrap().iter().find(|r| r["name"] == "student-005").unwrap().clone();
    let cells = one["crosstable"].as_array().unwrap();
    assert!(!cells.is_empty());
    assert!(cells.iter().all(|c| c["player"] == me["id"]), "{one}");
    assert_eq!(one["rows"].as_array().unwrap().len(), cells.len() + 1, "the group and each it met");
    let played: u64 = cells
        .iter()
        .map(|c| ["wins", "draws", "losses"].iter().map(|k| c[k].as_u64().unwrap()).sum::<u64>())
        .sum();
    assert_eq!(played, me["games"].as_u64().unwrap());

    // A page is tagged as the first is: asked again with its tag, 304.
    let url = format!("{}/api/leaderboard?offset=200", server.url);
    let first = agent().get(&url).call().unwrap();
    let tag = first.headers().get("etag").unwrap().to_str().unwrap().to_string();
    let again = agent().get(&url).header("If-None-Match", &tag).call().unwrap();
    assert_eq!(again.status(), 304);
}

#[test]
fn a_restarted_server_answers_with_the_ratings_it_stored() {
    let data = field(40, 40 * 40);
    let stored = || -> Vec<(String, f64, Option<f64>)> {
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let mut query = db
            .prepare(
                "SELECT g.name, r.elo, r.error FROM league_ratings r JOIN submissions s ON s.id = r.submission
                 JOIN groups g ON g.id = s.group_id ORDER BY g.name",
            )
            .unwrap();
        query.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    };
    let server = Server::start(data.path(), &[]);
    let started = Instant::now();
    while stored().len() < 40 {
        assert!(started.elapsed() < Duration::from_secs(30), "no ratings stored: {:?}", stored());
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill();
    let ratings = stored();
    // Told apart: a stored fit that is not the one the league would make
    // from nothing (shifted by 7 Elo): the restarted server shows it as it is.
    let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
    db.execute("UPDATE league_ratings SET elo = elo + 7", []).unwrap();
    drop(db);
    let server = Server::start(data.path(), &[]);
    let (_, board) = get(&server, "/api/leaderboard", None);
    let mut shown: Vec<(String, f64, Option<f64>)> = board["round_robin"]["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["name"].as_str().unwrap().to_string(), r["elo"].as_f64().unwrap(), r["elo_error"].as_f64())
        })
        .collect();
    shown.sort_by(|a, b| a.0.cmp(&b.0));
    // (To a billionth: serde_json reads floats to within an ulp.)
    assert_eq!(shown.len(), ratings.len());
    for ((name, elo, error), (stored_name, stored_elo, stored_error)) in shown.iter().zip(&ratings) {
        assert_eq!(name, stored_name);
        assert!((elo - (stored_elo + 7.0)).abs() < 1e-9, "{name}: {elo} shown, {stored_elo} + 7 stored");
        assert!((error.unwrap() - stored_error.unwrap()).abs() < 1e-9, "{name}: {error:?} {stored_error:?}");
    }
}

#[test]
fn the_page_of_a_large_field_pages_searches_and_shows_a_groups_crosstable() {
    let Some(browser) = support::browser::chromium() else { return };
    let data = field(230, 230 * 20);
    let server = Server::start(data.path(), &[]);
    let count = |page: &str, marker: &str| page.matches(marker).count();
    // The first page: 200 of 230, a way to the next, no whole crosstable.
    let page = dump(&browser, &format!("{}/", server.url));
    assert!(page.contains("1–200 of 230"), "{page}");
    assert_eq!(count(&page, "data-group=\""), 200, "{page}");
    assert_eq!(count(&page, "data-rr-student=\""), 200);
    assert!(page.contains("Search for a group to see its results"), "{page}");
    assert_eq!(count(&page, "data-cross-student=\""), 0);
    // A search from the address: its rows only.
    let page = dump(&browser, &format!("{}/?q=student-01", server.url));
    assert!(page.contains("1–10 of 10 matching"), "{page}");
    assert_eq!(count(&page, "data-group=\""), 10);
    // One group: its results against each it met.
    let page = dump(&browser, &format!("{}/?q=student-123", server.url));
    assert_eq!(count(&page, "data-group=\""), 1, "{page}");
    assert!(page.contains("student-123: won-drawn-lost"), "{page}");
    assert!(count(&page, "data-cross-student=\"") >= 2, "{page}");
}
