//! The Intuitive AI referee: how a reveal is checked and applied and how a game
//! ends, for the single-player referee (`play::solo`) to drive; what the
//! game leaves is `record.rs`'s.

use std::time::Duration;

use player_api::intuitive::{
    Cell, IntuitiveGame, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest, IntuitiveWorld, Revealed,
};
use rand_chacha::ChaCha8Rng;

use super::record::*;
use crate::replay::live::LiveTurn;
use crate::{
    games::intuitive::IntuitiveAi,
    play::solo::{Budgeted, SoloReferee, Timed},
};

impl SoloReferee for IntuitiveAi {
    type World = IntuitiveWorld;
    type State = IntuitiveGame;
    type Step = Reveal;
    type End = IntuitiveEnd;

    fn draw(rules: &IntuitiveRules, rng: &mut ChaCha8Rng) -> IntuitiveWorld {
        IntuitiveWorld::generate(rules.size, rng)
    }

    fn start(_: &IntuitiveRules, world: &IntuitiveWorld) -> IntuitiveGame {
        IntuitiveGame::new(*world)
    }

    fn info(game: &IntuitiveGame, settings: &IntuitiveSettings, seed: u64) -> IntuitiveGameInfo {
        let size = game.world().size();
        IntuitiveGameInfo {
            size,
            turn_budget_us: settings.budgets.turn.first_turn().as_micros() as u64,
            seed,
        }
    }

    fn request(game: &IntuitiveGame, turn: u32, budget: Duration) -> IntuitiveRequest {
        IntuitiveRequest { view: *game.view(), turn, time_left_us: budget.as_micros() as u64 }
    }

    fn step(
        game: &mut IntuitiveGame,
        _: IntuitiveRequest,
        cell: Cell,
    ) -> (Option<Reveal>, Option<IntuitiveEnd>) {
        match game.reveal(cell) {
            Ok(shown) => {
                let end = match shown {
                    Revealed::Monster => Some(IntuitiveEnd::Monster),
                    Revealed::Pit => Some(IntuitiveEnd::Pit),
                    Revealed::Gold | Revealed::Hint(_) => None,
                };
                (Some(Reveal { cell, shown }), end)
            }
            Err(why) => {
                game.forfeit();
                (None, Some(IntuitiveEnd::Illegal { cell, why }))
            }
        }
    }

    fn forfeit(game: &mut IntuitiveGame) {
        game.forfeit();
    }

    fn live_step(request: &IntuitiveRequest, step: &Timed<Reveal>, _: &IntuitiveGame) -> LiveTurn {
        super::replay::live_step(request, step)
    }

    fn finish(
        seed: u64,
        settings: &IntuitiveSettings,
        world: IntuitiveWorld,
        reveals: Vec<Timed<Reveal>>,
        ending: IntuitiveEnding,
        game: &IntuitiveGame,
    ) -> (IntuitiveRecord, IntuitiveGameOver) {
        let settings = Budgeted { rules: IntuitiveRules { size: world.size() }, ..*settings };
        let record = IntuitiveRecord { seed, settings, world, reveals, ending, score: game.score() };
        let over = IntuitiveGameOver {
            outcome: record.ending.outcome(),
            score: record.score,
            turns: record.reveals.len() as u32,
            reason: record.ending.to_string().into(),
        };
        (record, over)
    }
}
