//! Measures the Intuitive AI reference levels on the default board: each
//! level plays the same seeded worlds (game i has seed derive(seed, i)).
//!
//! ```sh
//! cargo run --release -p arena --example intuitive_levels -- --games 100000 --seed 1 easy medium hard expert
//! ```

use arena_core::{games::intuitive::IntuitiveAi, play::solo};
use std::time::Instant;

use arena_core::{
    games::intuitive::record::{IntuitiveEnd, IntuitiveEnding, IntuitiveSettings},
    play::seeds,
};
use player_api::intuitive::IntuitivePlayer;
use reference_bots::intuitive::{Easy, Expert, Hard, Medium};

fn main() {
    let mut games = 10_000u64;
    let mut seed = 1u64;
    let mut levels = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> u64 {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
                eprintln!("error: {name} needs a number, e.g. {name} 1000");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--games" => games = number("--games"),
            "--seed" => seed = number("--seed"),
            level => levels.push(level.to_string()),
        }
    }
    if levels.is_empty() {
        levels = ["easy", "medium", "hard", "expert"].map(String::from).to_vec();
    }
    println!("Intuitive AI, 4x4, {games} games, seed {seed}");
    println!("| level | mean score | 95% interval | won | fell in a pit | time |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for level in &levels {
        let (mut easy, mut medium, mut hard, mut expert) =
            (Easy::default(), Medium::default(), Hard, Expert::default());
        let player: &mut dyn IntuitivePlayer = match level.as_str() {
            "easy" => &mut easy,
            "medium" => &mut medium,
            "hard" => &mut hard,
            "expert" => &mut expert,
            other => {
                eprintln!("error: unknown level {other:?}: use easy, medium, hard or expert");
                std::process::exit(2)
            }
        };
        let settings = IntuitiveSettings::default();
        let started = Instant::now();
        let (mut sum, mut sum_sq, mut won, mut pits) = (0f64, 0f64, 0u64, 0u64);
        for i in 0..games {
            if i.is_power_of_two() && std::env::var_os("PROGRESS").is_some() {
                eprintln!("game {i}, {:.1} s", started.elapsed().as_secs_f64());
            }
            let record = solo::play_local::<IntuitiveAi>(&settings, seeds::derive(seed, i), player);
            let score = f64::from(record.score);
            sum += score;
            sum_sq += score * score;
            match record.ending {
                IntuitiveEnding::Rules(IntuitiveEnd::Monster) => won += 1,
                IntuitiveEnding::Rules(IntuitiveEnd::Pit) => pits += 1,
                _ => {}
            }
        }
        let n = games as f64;
        let mean = sum / n;
        let half = 1.959964 * ((sum_sq / n - mean * mean) / n).sqrt();
        println!(
            "| {level} | {mean:.4} | [{:.4}, {:.4}] | {:.1}% | {:.1}% | {:.1} s |",
            mean - half,
            mean + half,
            100.0 * won as f64 / n,
            100.0 * pits as f64 / n,
            started.elapsed().as_secs_f64()
        );
        if level == "expert" {
            println!("(expert: {} belief states cached)", expert.cached_states());
        }
    }
}
