//! The loop on a model of games: a player whose Elo peaks at known values
//! (a quadratic bowl), its games drawn from the Elo difference with the
//! iteration's game seed, so the model is as repeatable as real games.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::play::seeds;

/// Elo = -SCALE sum ((x - best) / width)^2; games by the logistic model.
struct Bowl {
    best: Vec<f64>,
    width: Vec<f64>,
    /// Stop (return None) at this iteration, once.
    stop_at: Option<u32>,
    played: u32,
}

impl Bowl {
    fn new(best: &[f64], width: &[f64]) -> Bowl {
        Bowl { best: best.to_vec(), width: width.to_vec(), stop_at: None, played: 0 }
    }

    fn elo(&self, x: &[f64]) -> f64 {
        -200.0
            * x.iter().zip(&self.best).zip(&self.width).map(|((x, b), w)| ((x - b) / w).powi(2)).sum::<f64>()
    }
}

impl IterationGames for Bowl {
    fn play(&mut self, p: &Perturbation, game_seed: u64, pairs: u32) -> Result<Option<Outcome>> {
        if self.stop_at == Some(p.k) {
            self.stop_at = None;
            return Ok(None);
        }
        let diff = self.elo(&p.plus) - self.elo(&p.minus);
        let win = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        let mut wdl = Wdl::default();
        for j in 0..pairs {
            let mut rng = ChaCha8Rng::seed_from_u64(seeds::derive(game_seed, u64::from(j)));
            for _ in 0..2 {
                // 20% draws at any strength; the rest by the model.
                let u: f64 = rng.random();
                if u < 0.2 {
                    wdl.draws += 1;
                } else if rng.random::<f64>() < win {
                    wdl.wins += 1;
                } else {
                    wdl.losses += 1;
                }
            }
        }
        self.played += 1;
        Ok(Some(Outcome::Duel(wdl)))
    }
}

fn config(seed: u64, iterations: u32) -> TuneConfig {
    TuneConfig {
        params: param::parse_all(&[
            "depth, int, 1, 0, 20, 1, 0.01".into(),
            "weight, float, 0.5, 0, 4, 0.15, 0.02".into(),
        ])
        .unwrap(),
        schedule: Schedule::new(iterations),
        pairs: 4,
        seed,
        games_print: "model".into(),
    }
}

fn tune(config: &TuneConfig, games: &mut Bowl, out: Option<&Path>) -> Tuned {
    run(config, out, games, &mut |_| {}).unwrap()
}

#[test]
fn a_tune_converges_to_the_known_best_values() {
    let config = config(3, 600);
    let mut bowl = Bowl::new(&[12.0, 2.5], &[6.0, 1.5]);
    let tuned = tune(&config, &mut bowl, None);
    assert!(tuned.complete && tuned.trajectory.len() == 600);
    let theta = tuned.theta(&config);
    assert!((theta[0] - 12.0).abs() < 1.5, "depth {theta:?}");
    assert!((theta[1] - 2.5).abs() < 0.5, "weight {theta:?}");
    // Closer than the start by far: the model's Elo gained.
    assert!(bowl.elo(&theta) > bowl.elo(&config.start()) + 300.0);
}

#[test]
fn the_same_seed_gives_the_same_trajectory_and_another_seed_another() {
    let config = config(7, 50);
    let bowl = || Bowl::new(&[12.0, 2.5], &[6.0, 1.5]);
    let one = tune(&config, &mut bowl(), None).trajectory;
    let two = tune(&config, &mut bowl(), None).trajectory;
    assert_eq!(one, two);
    let other = tune(&TuneConfig { seed: 8, ..config }, &mut bowl(), None).trajectory;
    assert_ne!(one, other);
}

#[test]
fn a_resumed_tune_ends_as_the_uninterrupted_one() {
    let config = config(11, 40);
    let bowl = || Bowl::new(&[12.0, 2.5], &[6.0, 1.5]);
    let through = tune(&config, &mut bowl(), None);
    let dir = tempfile::tempdir().unwrap();
    let mut stopped = Bowl { stop_at: Some(17), ..bowl() };
    let first = tune(&config, &mut stopped, Some(dir.path()));
    assert!(!first.complete);
    assert_eq!(first.trajectory.len(), 16);
    // A run killed mid-write leaves a partial line: it is cut off.
    let journal = dir.path().join(journal::FILE_NAME);
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"perturbation\":{\"k\":17,");
    std::fs::write(&journal, text).unwrap();
    let mut rest = bowl();
    let second = tune(&config, &mut rest, Some(dir.path()));
    assert!(second.complete);
    assert_eq!(second.resumed, 16);
    assert_eq!(rest.played, 24, "only the iterations the journal lacks are played");
    assert_eq!(second.trajectory, through.trajectory);
    // Once done, a run plays nothing.
    let mut none = bowl();
    assert_eq!(tune(&config, &mut none, Some(dir.path())).trajectory, through.trajectory);
    assert_eq!(none.played, 0);
}

#[test]
fn a_journal_of_another_tune_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bowl = || Bowl::new(&[12.0, 2.5], &[6.0, 1.5]);
    tune(&config(1, 3), &mut bowl(), Some(dir.path()));
    let error = run(&config(2, 3), Some(dir.path()), &mut bowl(), &mut |_| {}).unwrap_err().to_string();
    assert!(
        error.contains("is the journal of another tune") && error.contains("choose another --out"),
        "{error}"
    );
    assert!(!error.contains('\n'));
}

#[test]
fn against_an_opponent_the_result_is_half_the_difference() {
    let plus = Wdl { wins: 5, draws: 1, losses: 2 };
    let minus = Wdl { wins: 2, draws: 2, losses: 4 };
    assert_eq!(Outcome::Against { plus, minus }.result(), (3.0 - -2.0) / 2.0);
    assert_eq!(Outcome::Duel(plus).result(), 3.0);
    let halves = Outcome::Against { plus, minus }.combine(Outcome::Against { plus: minus, minus: plus });
    assert_eq!(halves.games(), 32);
    assert_eq!(halves.result(), 0.0);
}

#[test]
fn the_values_come_out_as_flags() {
    let config = config(1, 1);
    assert_eq!(as_flags(&config.params, &[11.6, 2.345_678_9]), "--param depth=12 --param weight=2.34568");
}
