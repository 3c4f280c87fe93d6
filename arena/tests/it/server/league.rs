//! The live league: matchmade, stored as played, and resumed after a kill without a game played twice.

use std::time::{Duration, Instant};

use super::{add_student, finished, get, submit, wait_for, Server};
use crate::support::library;

#[test]
fn the_league_is_matchmade_stored_as_played_and_survives_a_kill_without_playing_a_game_twice() {
    let data = tempfile::tempdir().unwrap();
    let levels = ["easy", "medium", "hard", "easy"];
    let tokens: Vec<String> = (0..levels.len()).map(|i| add_student(data.path(), &format!("s{i}"))).collect();
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    for (token, level) in tokens.iter().zip(levels) {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201);
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    server.kill();
    // The league starts, is killed mid-way (twice), and goes on.
    let games = || -> Vec<(i64, i64, i64)> {
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let mut query = db.prepare("SELECT a, b, game FROM games ORDER BY a, b, game").unwrap();
        query.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    };
    for _ in 0..2 {
        let server = Server::start(data.path(), &[]);
        let started = Instant::now();
        while games().len() < 6 && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        server.kill();
    }
    // A pairing cut in the middle of its seat-swapped pair of games (as a
    // kill between the two leaves it) completes it.
    // The kills may have left one already; if not, one is made.
    {
        assert!(!games().is_empty(), "the league played nothing before the kills");
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let odd: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM (SELECT 1 FROM games GROUP BY a, b HAVING COUNT(*) % 2 = 1)",
                [],
                |row| row.get(0),
            )
            .unwrap();
        if odd == 0 {
            let cut = db
                .execute(
                    "DELETE FROM games WHERE rowid = (SELECT MAX(rowid) FROM games WHERE (a, b) IN
                       (SELECT a, b FROM games GROUP BY a, b LIMIT 1))",
                    [],
                )
                .unwrap();
            assert_eq!(cut, 1, "{:?}", games());
        }
    }
    let server = Server::start(data.path(), &[]);
    let started = Instant::now();
    let board = loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        if board["round_robin"]["standings"]["games"] == 60 {
            break board;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{board}");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Every pairing played its 10 games once each, in order: none lost to
    // the kills, none played twice.
    let stored = games();
    assert_eq!(stored.len(), 60);
    let mut pairings: std::collections::BTreeMap<(i64, i64), Vec<i64>> = Default::default();
    for (a, b, game) in stored {
        pairings.entry((a, b)).or_default().push(game);
    }
    assert_eq!(pairings.len(), 6);
    for (pairing, indices) in &pairings {
        assert_eq!(indices, &(0..10).collect::<Vec<i64>>(), "{pairing:?}");
    }
    // The standings count them all; the strongest level ranks above the weakest.
    let rows = board["round_robin"]["standings"]["rows"].as_array().unwrap().clone();
    assert!(rows.iter().all(|r| r["games"] == 30), "{rows:?}");
    let rank = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap()["rank"].as_u64().unwrap();
    assert!(rank("s2") < rank("s0"), "hard above easy: {rows:?}");
    let (_, cross) = get(&server, "/api/leaderboard/crosstable", None);
    assert_eq!(cross["crosstable"].as_array().unwrap().len(), 12, "{cross}");
}
