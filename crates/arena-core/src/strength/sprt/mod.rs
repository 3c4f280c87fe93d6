//! `arena bench sprt`: is NEW stronger than OLD? A sequential probability ratio
//! test over seat-swapped game pairs on shared seeds (the match of
//! `two_player::play`), as engine testers run it (fishtest, OpenBench,
//! fastchess, cutechess-cli): after each pair, in order, the LLR of the
//! pentanomial pair counts (`stats`) is checked against its bounds; the
//! test stops at a bound, at the most games, or when told to (Ctrl-C).
//! Checking in game order, whatever finished first, makes the verdict a
//! function of the seed alone: the same at any concurrency.

pub mod simulation;
pub mod stats;

use std::{
    ops::ControlFlow,
    sync::atomic::{AtomicBool, Ordering},
};

use serde::Serialize;

use crate::{
    play::fault::Failures,
    play::two_player::{self, MatchConfig, MatchGame, TwoPlayerGame},
    players::Player,
    stats::EloEstimate,
};
pub use stats::{EloModel, Evidence, Hypotheses, Verdict};

/// Where a test stands after some pairs. Player 0 is NEW, 1 is OLD.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    pub evidence: Evidence,
    pub llr: f64,
    /// The LLR the same games give taken one by one (for comparison).
    pub llr_trinomial: f64,
    /// NEW's Elo over OLD in the test's model, with its 95% interval.
    pub elo: EloEstimate,
    /// Games each player lost by failing (illegal move, crash, timeout...).
    pub failures: [Failures; 2],
    /// Each player's first failure, as people read it: "game 3: crashed ...".
    pub first_failures: [Option<String>; 2],
}

impl Standing {
    fn new(model: EloModel) -> Standing {
        let evidence = Evidence::default();
        Standing {
            evidence,
            llr: 0.0,
            llr_trinomial: 0.0,
            elo: stats::elo_estimate(&evidence.pentanomial, model),
            failures: [Failures::default(); 2],
            first_failures: [None, None],
        }
    }

    pub fn games(&self) -> u64 {
        self.evidence.games()
    }
}

/// Why the test stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The LLR reached a bound.
    Verdict(Verdict),
    /// The most games were played first: inconclusive.
    MaxGames,
    /// Stopped from outside (Ctrl-C) before either.
    Interrupted,
}

/// The test's end: where it stood, and why it stopped.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub standing: Standing,
    pub ending: Ending,
}

/// What one game counts for, kept until its pair is complete.
struct GameCount {
    /// NEW's score: 1, 0.5 or 0.
    score: f64,
    /// The player that lost by failing, its fault's kind and its text.
    failure: Option<(usize, &'static str, String)>,
}

impl GameCount {
    fn of<G: TwoPlayerGame>(game: &MatchGame<G>) -> GameCount {
        let score = match game.winner() {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let failure = game
            .failure()
            .zip(game.failure_text())
            .map(|((player, kind), (_, text))| (player, kind, format!("game {}: {text}", game.index + 1)));
        GameCount { score, failure }
    }
}

/// Runs the test: `config.games` is the most games (even: whole pairs),
/// `players[0]` is NEW. `on_pair` sees the standing after each pair (the
/// progress line). Setting `stop` ends it after the games under way.
pub fn run<G: TwoPlayerGame>(
    players: [&Player; 2],
    config: &MatchConfig<G>,
    hypotheses: &Hypotheses,
    stop: &AtomicBool,
    on_pair: &mut dyn FnMut(&Standing),
) -> Outcome {
    let mut standing = Standing::new(hypotheses.model);
    let mut verdict = None;
    let mut first_of_pair: Option<GameCount> = None;
    let mut on_game = |game: MatchGame<G>| {
        let count = GameCount::of(&game);
        let Some(first) = first_of_pair.take() else {
            first_of_pair = Some(count);
            return ControlFlow::Continue(());
        };
        for (player, kind, text) in [first.failure, count.failure].into_iter().flatten() {
            standing.failures[player].add(kind);
            standing.first_failures[player].get_or_insert(text);
        }
        standing.evidence.add_pair([first.score, count.score]);
        standing.llr = standing.evidence.llr(hypotheses);
        standing.llr_trinomial = standing.evidence.llr_trinomial(hypotheses);
        standing.elo = stats::elo_estimate(&standing.evidence.pentanomial, hypotheses.model);
        on_pair(&standing);
        verdict = hypotheses.verdict(standing.llr);
        if verdict.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    two_player::play_until(players, config, stop, &mut on_game, None);
    let ending = match verdict {
        Some(verdict) => Ending::Verdict(verdict),
        None if standing.games() >= u64::from(config.games) => Ending::MaxGames,
        None if stop.load(Ordering::SeqCst) => Ending::Interrupted,
        // Every game played, the last pair incomplete: an odd most.
        None => Ending::MaxGames,
    };
    Outcome { standing, ending }
}
