//! The Magic Forest reference levels over a seeded set of runs: mean run
//! score with its 95% interval, forests cleared, deaths, share of runs
//! that clear every forest.
//!
//! cargo run --release -p arena --example forest_levels -- [RUNS] [SEED]

use arena_core::{games::magic_forest::record::ForestSettings, play::seeds};
use arena_core::{games::magic_forest::MagicForest, play::solo};
use player_api::magic_forest::ForestPlayer;
use reference_bots::magic_forest::{Easy, Hard, Medium};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: u64 = args.first().map_or(10_000, |n| n.parse().expect("RUNS is a number"));
    let seed: u64 = args.get(1).map_or(1, |n| n.parse().expect("SEED is a number"));
    let settings = ForestSettings::default();
    let forests = settings.rules.sizes().count();
    println!("Magic Forest, forests 3x3 to {0}x{0}, {runs} runs, seed {seed}", settings.rules.largest);
    println!("| level | mean run score | 95% interval | forests cleared (of {forests}) | deaths per run | all cleared |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let levels: [(&str, Box<dyn ForestPlayer>); 3] = [
        ("easy", Box::new(Easy::default())),
        ("medium", Box::new(Medium::default())),
        ("hard", Box::new(Hard::default())),
    ];
    for (name, mut player) in levels {
        let (mut scores, mut cleared, mut deaths, mut all) = (Vec::new(), 0u64, 0u64, 0u64);
        for i in 0..runs {
            let run = solo::play_local::<MagicForest>(&settings, seeds::derive(seed, i), player.as_mut());
            scores.push(f64::from(run.score));
            cleared += u64::from(run.cleared);
            deaths += u64::from(run.deaths);
            all += u64::from(run.won());
        }
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let var = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        println!(
            "| {name} | {mean:.1} | {:.1} .. {:.1} | {:.2} | {:.2} | {:.1}% |",
            mean - half,
            mean + half,
            cleared as f64 / n,
            deaths as f64 / n,
            100.0 * all as f64 / n
        );
    }
}
