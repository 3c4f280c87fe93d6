//! The matchbox learner's learning curve: `--learners N` fresh learners
//! each play `--games G` games as Black against an opponent that reads
//! their boxes and plays the line most likely to beat them.
//!
//! ```sh
//! cargo run --release -p arena --example hexapawn_learning -- --learners 1000 --games 60
//! ```

use std::sync::{Arc, Mutex};

use arena_core::games::hexapawn::referee::{self as hexapawn, HexapawnSettings};
use player_api::Seat;
use reference_bots::hexapawn::{Exploiter, Menace, SharedMenace};

fn main() {
    let (mut learners, mut games) = (1000u64, 60u64);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (arg.as_str(), value) {
            ("--learners", Some(n)) => learners = n,
            ("--games", Some(n)) => games = n,
            _ => {
                eprintln!("error: unknown argument {arg:?}: use --learners N --games G");
                std::process::exit(2)
            }
        }
    }
    let mut lost_at = vec![0u64; games as usize];
    let mut last_loss = Vec::new();
    let mut losses = 0u64;
    for seed in 0..learners {
        let learner = Arc::new(Mutex::new(Menace::new(seed)));
        let mut white = Exploiter::new(learner.clone());
        let mut black = SharedMenace(learner);
        let mut last = None;
        for g in 0..games {
            let record = hexapawn::play(&HexapawnSettings::default(), g, [&mut white, &mut black]);
            if record.winner() == Seat::One {
                lost_at[g as usize] += 1;
                losses += 1;
                last = Some(g);
            }
        }
        last_loss.push(last.map_or(0, |g| g + 1));
    }
    last_loss.sort();
    let n = learners as f64;
    println!("{learners} learners as Black, {games} games each against the exploiter");
    println!("losses per learner: mean {:.2}", losses as f64 / n);
    println!(
        "games until the last loss: median {}, 90th percentile {}, max {}; stopped within 40 games: {:.1}%",
        last_loss[last_loss.len() / 2],
        last_loss[last_loss.len() * 9 / 10],
        last_loss.last().unwrap(),
        100.0 * last_loss.iter().filter(|&&g| g <= 40).count() as f64 / n
    );
    println!("| games | share of learners losing |");
    println!("| --- | --- |");
    for start in (0..games).step_by(5) {
        let end = (start + 5).min(games);
        let lost: u64 = lost_at[start as usize..end as usize].iter().sum();
        println!("| {}-{} | {:.1}% |", start + 1, end, 100.0 * lost as f64 / (n * (end - start) as f64));
    }
}
