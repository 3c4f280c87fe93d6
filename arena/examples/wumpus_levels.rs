//! The Wumpus World reference levels over a seeded set of worlds: mean
//! score with its 95% interval, share of worlds won, share of deaths.
//!
//! cargo run --release -p arena --example wumpus_levels -- [aima|project] [WORLDS] [SEED]

use arena_core::{games::wumpus::record::WumpusSettings, play::seeds};
use arena_core::{games::wumpus::Wumpus, play::solo};
use player_api::wumpus::{WumpusConfig, WumpusPlayer};
use reference_bots::wumpus::{Easy, Hard, Medium};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("aima", String::as_str);
    let worlds: u64 = args.get(1).map_or(10_000, |n| n.parse().expect("WORLDS is a number"));
    let seed: u64 = args.get(2).map_or(1, |n| n.parse().expect("SEED is a number"));
    let Some(config) = WumpusConfig::preset(preset) else {
        eprintln!("error: unknown preset {preset:?}: use aima or project");
        std::process::exit(2);
    };
    let settings = WumpusSettings::new(config);
    println!("Wumpus World, preset {preset}, {worlds} worlds, seed {seed}");
    println!("| level | mean score | 95% interval | won | died |");
    println!("| --- | --- | --- | --- | --- |");
    let levels: [(&str, Box<dyn WumpusPlayer>); 3] = [
        ("easy", Box::new(Easy::default())),
        ("medium", Box::new(Medium::default())),
        ("hard", Box::new(Hard::default())),
    ];
    for (name, mut player) in levels {
        let (mut scores, mut won, mut died) = (Vec::new(), 0u64, 0u64);
        for i in 0..worlds {
            let game = solo::play_local::<Wumpus>(&settings, seeds::derive(seed, i), player.as_mut());
            scores.push(f64::from(game.score));
            won += u64::from(game.won());
            died += u64::from(game.died());
        }
        let (mean, half) = mean_and_half_interval(&scores);
        let share = |k: u64| 100.0 * k as f64 / worlds as f64;
        println!(
            "| {name} | {mean:.1} | {:.1} .. {:.1} | {:.1}% | {:.1}% |",
            mean - half,
            mean + half,
            share(won),
            share(died)
        );
    }
}

/// The mean and the half-width of its normal 95% interval.
fn mean_and_half_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}
