//! Sharded tournaments, measured (docs/benchmarks.md, "Sharded tournaments"):
//! how evenly the split spreads the cost over shards when players differ
//! in cost, and how long the standings of 9,900 games take from 16 shard
//! journals against one journal.
//!
//!     cargo run --release -p arena --example shard_bench

use std::{fmt::Write as _, ops::Range, sync::atomic::AtomicBool, time::Instant};

use arena_core::tournament::{
    config::Tournament,
    fingerprint,
    journal::{Journal, FILE_NAME},
    merge,
    record::{GameResult, ScheduledGame, SeatClock},
    run_part,
    schedule::paired,
    shard, Part, Quiet,
};
use rand::{Rng, SeedableRng};

fn round_robin(players: usize, games: u32) -> Vec<ScheduledGame> {
    let pairings: Vec<[usize; 2]> =
        (0..players).flat_map(|a| (a + 1..players).map(move |b| [a, b])).collect();
    paired(&pairings, games, 1)
}

/// A player's cost per game: a fifth think for the whole budget, the
/// rest answer within a tenth of it (a class as the course sees it).
fn player_costs(players: usize, rng: &mut impl Rng) -> Vec<f64> {
    (0..players).map(|_| if rng.random_bool(0.2) { 1.0 } else { rng.random_range(0.0..0.1) }).collect()
}

/// Max/mean of the shards' costs under `owner` (mean and worst over
/// 200 draws of the players' costs; and with every game costing the same).
fn balance(
    schedule: &[ScheduledGame],
    units: &[Range<usize>],
    owners: &[usize],
    count: usize,
) -> (f64, f64, f64) {
    let costs = |cost: &dyn Fn(&ScheduledGame) -> f64| {
        shard::imbalance(&shard::shard_costs(schedule, units, owners, count, cost))
    };
    let equal = costs(&|_| 1.0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let players = schedule.iter().flat_map(|g| g.seats).max().unwrap() + 1;
    let draws: Vec<f64> = (0..200)
        .map(|_| {
            let c = player_costs(players, &mut rng);
            costs(&|g| c[g.seats[0]] + c[g.seats[1]])
        })
        .collect();
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    (equal, mean, draws.iter().copied().fold(0.0, f64::max))
}

fn balance_table() -> String {
    let mut text = String::from(
        "| schedule | shards | games per shard | equal costs | players' costs: mean | worst of 200 | dealt in turn (i mod N): mean | worst |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let cases: [(&str, usize, u32, usize); 3] = [
        ("16 players x 2 games", 16, 2, 1),
        ("100 players x 2 games", 100, 2, 1),
        ("16 players, Hexapawn pairings of 40", 16, 40, 40),
    ];
    for (name, players, games, unit) in cases {
        let schedule = round_robin(players, games);
        let units: Vec<Range<usize>> = (0..schedule.len()).step_by(unit).map(|s| s..s + unit).collect();
        for count in [4, 16, 64] {
            if count * 2 > units.len() {
                continue;
            }
            let ours = balance(&schedule, &units, &shard::assign(&schedule, &units, count), count);
            let dealt: Vec<usize> = (0..units.len()).map(|u| u % count).collect();
            let naive = balance(&schedule, &units, &dealt, count);
            let _ = writeln!(
                text,
                "| {name} ({} games) | {count} | {:.0} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
                schedule.len(),
                schedule.len() as f64 / count as f64,
                ours.0,
                ours.1,
                ours.2,
                naive.1,
                naive.2
            );
        }
    }
    text
}

/// Writes 9,900 made-up games of a 100-player round robin into `folder`:
/// into 16 shard journals, or one journal; then times the report.
fn merge_time(sharded: bool) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let players = vec!["\"easy\""; 100].join(", ");
    let file = dir.path().join("class.toml");
    std::fs::write(
        &file,
        format!("format = \"round-robin\"\ngames_per_pairing = 2\nseed = 1\noutput = \"out\"\nplayers = [{players}]\n"),
    )
    .unwrap();
    let tournament = Tournament::load(&file).unwrap();
    let schedule = arena_core::tournament::schedule::schedule(&tournament);
    let print = fingerprint(&tournament, &schedule);
    let game = |g: &ScheduledGame| GameResult {
        index: g.index,
        seed: g.seed,
        seats: g.seats,
        winner: Some(g.seats[(g.seed % 2) as usize]),
        turns: 40,
        reason: "trapped".into(),
        fault: None,
        clock: [SeatClock { turns: 20, total_us: 1_234_567, max_us: 98_765, ..SeatClock::default() }; 2],
        solo: None,
        replayed: 0,
        replay_left_out: false,
    };
    let count = if sharded { 16 } else { 1 };
    for index in 1..=count {
        let s = shard::Shard { index, count };
        let mine = shard::games_of(&tournament, &schedule, s);
        let name = if sharded { s.journal_name() } else { FILE_NAME.to_string() };
        let (mut journal, _) =
            Journal::open(&tournament.output, &name, &tournament.name, &print, schedule.len()).unwrap();
        // Batches of 8, as a busy run commits them.
        let games: Vec<GameResult> = schedule.iter().filter(|g| mine[g.index]).map(game).collect();
        for batch in games.chunks(8) {
            journal.append(batch).unwrap();
        }
    }
    let started = Instant::now();
    let merged = merge::read_all(&tournament.output, &print, schedule.len()).unwrap();
    let read = started.elapsed().as_secs_f64();
    assert_eq!(merged.results.len(), 9900);
    let started = Instant::now();
    let outcome = run_part(tournament, Part::Report, &AtomicBool::new(false), &mut Quiet).unwrap();
    assert!(outcome.missing.is_empty() && outcome.written.len() == 4);
    (read, started.elapsed().as_secs_f64())
}

fn main() {
    println!("{}", balance_table());
    let (one_read, one_report) = merge_time(false);
    let (many_read, many_report) = merge_time(true);
    println!("| 9,900 games | read the journals | whole report (load players, merge, standings files) |");
    println!("| --- | --- | --- |");
    println!("| one journal | {:.1} ms | {:.1} ms |", one_read * 1e3, one_report * 1e3);
    println!(
        "| 16 shard journals | {:.1} ms ({:.2}x) | {:.1} ms ({:.2}x) |",
        many_read * 1e3,
        many_read / one_read,
        many_report * 1e3,
        many_report / one_report
    );
}
