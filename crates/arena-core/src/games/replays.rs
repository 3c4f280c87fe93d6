//! A replay of any game: `Body`, a variant per line of the table, holding
//! that game's own body. Replay files are written and read as
//! `GameReplay` (`Replay<Body>`); a game's own replay becomes one through
//! `TableGame::any`.

use serde::{Deserialize, Serialize};

use crate::{
    analysis::{AnalysedBody, Budget, Judgement, Measure, Searched},
    game::GameId,
    replay::{html, terminal::Paint, Replay, ReplayBody, ReplayGame},
};

/// A replay of any game, as files hold it.
pub type GameReplay = Replay<Body>;

/// Generates `Body` from the table, its dispatch, and `TableGame` for each
/// line.
macro_rules! replay_bodies {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        /// The per-game part of a replay; its `game` field names the game.
        #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
        #[serde(tag = "game")]
        pub enum Body {
            $(#[serde(rename = $name)] $variant(<$game as ReplayGame>::Body),)+
        }

        impl ReplayBody for Body {
            fn game(&self) -> GameId {
                match self { $(Body::$variant(_) => GameId::$variant,)+ }
            }

            fn steps_noun(&self) -> &'static str {
                match self { $(Body::$variant(body) => body.steps_noun(),)+ }
            }

            fn viewer(&self) -> &'static str {
                match self { $(Body::$variant(body) => body.viewer(),)+ }
            }

            fn check<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<(), String> {
                match self { $(Body::$variant(body) => body.check(replay),)+ }
            }

            fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
                match self { $(Body::$variant(body) => body.verify(replay),)+ }
            }

            fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
                match self { $(Body::$variant(body) => body.frames(replay, paint),)+ }
            }
        }

        impl AnalysedBody for Body {
            fn measure(&self) -> Measure {
                match self { $(Body::$variant(body) => body.measure(),)+ }
            }

            fn judge<E>(&self, replay: &Replay<E>, budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
                match self { $(Body::$variant(body) => body.judge(replay, budget, from),)+ }
            }

            fn judge_searched<E>(
                &self,
                replay: &Replay<E>,
                budget: Budget,
            ) -> Result<Vec<(Judgement, Option<Searched>)>, String> {
                match self { $(Body::$variant(body) => body.judge_searched(replay, budget),)+ }
            }
        }

        $(impl TableGame for $game {
            fn any(replay: Replay<<$game as ReplayGame>::Body>) -> GameReplay {
                replay.with_body(Body::$variant)
            }
        })+

        /// The viewer of every game without a replay: what a
        /// Content-Security-Policy that lets any viewer run hashes (its
        /// inline code is the same for every replay of a game).
        pub fn every_viewers_code() -> Vec<String> {
            vec![$(html::code(<$game as ReplayGame>::VIEWER),)+]
        }

        /// Every game's drawing script, one after another: a live page's
        /// (it learns which game it shows from the feed).
        pub fn every_viewer() -> String {
            [$(<$game as ReplayGame>::VIEWER,)+].join("\n")
        }
    };
}
crate::game_table!({ replay_bodies }());

/// The viewer page of the live game at `feed` (`html::live_page`), any game.
pub fn live_page(feed: &str, follows: bool) -> String {
    html::live_page(&every_viewer(), feed, follows)
}

/// What judges a live game of any game as it is played
/// (`Live::with_analyst`): its replay so far, analysed with `budget`, the
/// turns its previous analysis judged taken as they were.
pub fn live_analyst(budget: Budget) -> crate::replay::live::Analyst {
    std::sync::Arc::new(move |replay: &serde_json::Value, earlier: Option<&serde_json::Value>| {
        let replay = GameReplay::deserialize(replay).ok()?;
        let earlier: Vec<Judgement> =
            earlier.and_then(|analysis| Vec::deserialize(&analysis["turns"]).ok()).unwrap_or_default();
        // Of more turns than the game has: not this game's, judged whole.
        let earlier = if earlier.len() <= replay.result.turns as usize { earlier } else { Vec::new() };
        let analysis = crate::analysis::analyse_after(&replay, budget, earlier).ok()?;
        serde_json::to_string(&analysis).ok()
    })
}

/// A game of the table: its own replays become replays of any game.
pub trait TableGame: ReplayGame {
    fn any(replay: Replay<Self::Body>) -> GameReplay;
}
