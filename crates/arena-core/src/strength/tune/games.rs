//! An iteration's games on this machine: seat-swapped pairs on shared
//! seeds, the match's own (`two_player::play_until`: pair j on
//! `seeds::derive(game_seed, j)`, at any concurrency the same games),
//! between theta+ and theta-, or each of them against the opponent on the
//! same pairs. A Slurm worker plays its share of the pairs with the same
//! function, so the cluster plays the games this machine would.

use std::{
    ops::{ControlFlow, Range},
    sync::atomic::{AtomicBool, Ordering},
};

use anyhow::Result;

use super::{IterationGames, Outcome, Perturbation, Wdl};
use crate::{
    play::two_player::{self, MatchConfig, MatchGame, TwoPlayerGame},
    players::Player,
};

/// The player with the given values of the tuned parameters (in the
/// order of the tune's lines).
pub type MakePlayer<'a> = dyn Fn(&[f64]) -> Result<Player> + Sync + 'a;

/// What plays a tune's games: the player (made with each iteration's
/// values), the opponent (None: theta+ against theta-), and the match
/// settings (game settings, hosting, concurrency, time controls; its seed,
/// games and first game are set per share).
pub struct Pairs<'a, G: TwoPlayerGame> {
    pub player: &'a MakePlayer<'a>,
    pub opponent: Option<&'a Player>,
    pub config: MatchConfig<G>,
    /// Set (Ctrl-C): the games under way finish, the iteration is dropped.
    pub stop: &'a AtomicBool,
}

impl<G: TwoPlayerGame> Pairs<'_, G> {
    /// Plays pairs `pairs` of the iteration `p` (seeded `game_seed`);
    /// `on_game` sees each game end. None if stopped first.
    pub fn play_share(
        &self,
        p: &Perturbation,
        game_seed: u64,
        pairs: Range<u32>,
        on_game: &mut dyn FnMut(),
    ) -> Result<Option<Outcome>> {
        let (plus, minus) = ((self.player)(&p.plus)?, (self.player)(&p.minus)?);
        let outcome = match self.opponent {
            None => self.score([&plus, &minus], game_seed, &pairs, on_game).map(Outcome::Duel),
            Some(opponent) => {
                let Some(plus) = self.score([&plus, opponent], game_seed, &pairs, on_game) else {
                    return Ok(None);
                };
                self.score([&minus, opponent], game_seed, &pairs, on_game)
                    .map(|minus| Outcome::Against { plus, minus })
            }
        };
        Ok(outcome)
    }

    /// The first player's games over `pairs`; None if stopped first.
    fn score(
        &self,
        players: [&Player; 2],
        seed: u64,
        pairs: &Range<u32>,
        on_game: &mut dyn FnMut(),
    ) -> Option<Wdl> {
        let config = MatchConfig {
            seed,
            first_game: 2 * pairs.start,
            games: 2 * pairs.len() as u32,
            ..self.config.clone()
        };
        let mut wdl = Wdl::default();
        let mut count = |game: MatchGame<G>| {
            match game.winner() {
                Some(0) => wdl.wins += 1,
                Some(_) => wdl.losses += 1,
                None => wdl.draws += 1,
            }
            on_game();
            ControlFlow::Continue(())
        };
        two_player::play_until(players, &config, self.stop, &mut count, None);
        (wdl.games() == config.games && !self.stop.load(Ordering::SeqCst)).then_some(wdl)
    }
}

/// The iterations played here, each whole; `on_game` sees the games of
/// the iteration under way end (the progress line's count).
pub struct Local<'a, G: TwoPlayerGame> {
    pub pairs: &'a Pairs<'a, G>,
    pub on_game: Box<dyn FnMut() + 'a>,
}

impl<G: TwoPlayerGame> IterationGames for Local<'_, G> {
    fn play(&mut self, p: &Perturbation, game_seed: u64, pairs: u32) -> Result<Option<Outcome>> {
        self.pairs.play_share(p, game_seed, 0..pairs, &mut self.on_game)
    }
}
