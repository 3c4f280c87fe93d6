//! Why a game was lost: every turn of a replay judged (docs/analysis.md).
//!
//! A game's analyser (`games/<game>/analysis.rs`, an `AnalysedBody`) gives,
//! per turn, the mover's value before it and after the action played (the
//! expectation over the luck that follows), and the best action with its
//! value: a win chance in [0, 1] (two-player games) or an expected score
//! (single-player games). Here, generic over the games: the marks
//! (inaccuracy, mistake, blunder), each player's accuracy, and the turning
//! point of a lost game.

pub mod html;
pub mod text;

use serde::{Deserialize, Serialize};

use crate::{
    play::fault::player_line,
    replay::{Replay, ReplayBody},
};

/// How much work an analyser may spend on one position. Counted in work
/// done (nodes, rollouts), never in time: the same replay gives the same
/// analysis on any machine and load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions a search may visit (Trap's expectimax).
    pub nodes: u64,
    /// Worlds sampled per estimate (games with hidden state).
    pub rollouts: u32,
}

impl Default for Budget {
    /// What `arena analyse` uses: a 30-turn Trap game in well under a
    /// second on one core (release; docs/benchmarks.md).
    fn default() -> Budget {
        Budget { nodes: 300_000, rollouts: 200 }
    }
}

impl Budget {
    /// A small budget, for tests in debug builds.
    pub const QUICK: Budget = Budget { nodes: 5_000, rollouts: 20 };
}

/// What the values of a game's analysis are.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Measure {
    /// The mover's chance to win, in [0, 1].
    WinChance,
    /// The expected final score; `span` is its range (best minus worst
    /// final score), by which drops are compared with the win chance's
    /// thresholds.
    ExpectedScore { span: f64 },
}

impl Measure {
    /// A drop in this measure as a share of its range: a drop in win
    /// chance as it is, a drop in score over the score's span.
    pub fn share(self, drop: f64) -> f64 {
        match self {
            Measure::WinChance => drop,
            Measure::ExpectedScore { span } => drop / span,
        }
    }
}

/// One turn as a game's analyser judged it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The turn's number in the replay (1 the first).
    pub turn: u32,
    /// Index into the replay's players of who moved.
    pub player: usize,
    /// What was played, as people read it ("moved to (3,4), threw at (2,4)").
    pub played: String,
    /// The mover's value before the turn.
    pub before: f64,
    /// The value of what was played, for the mover.
    pub after: f64,
    /// The best action, and its value.
    pub best: String,
    pub best_value: f64,
}

impl Judgement {
    /// A single player's turn judged from every legal action's value (the
    /// rollout analysers): the position is worth its best action; a tie
    /// with the best is the best, and names the action played.
    pub fn of_values<A: Copy + PartialEq + std::fmt::Display>(
        turn: u32,
        played: A,
        values: &[(A, f64)],
    ) -> Judgement {
        let (best, best_value) =
            values.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)).expect("a position has a legal action");
        let value_of = values.iter().find(|(a, _)| *a == played).map(|(_, v)| *v);
        let played_value = value_of.unwrap_or(best_value).min(best_value);
        let best = if played_value >= best_value { played } else { best };
        Judgement {
            turn,
            player: 0,
            played: played.to_string(),
            before: best_value,
            after: played_value,
            best: best.to_string(),
            best_value,
        }
    }
}

/// Up to `wanted` worlds from `draw` (None: a draw that does not fit what
/// the player saw), trying at most `wanted * draws_per_world` times:
/// rejection sampling, for the analysers of games with hidden state. None
/// when nothing fitted.
pub fn sample_worlds<T>(
    wanted: u32,
    draws_per_world: u32,
    mut draw: impl FnMut() -> Option<T>,
) -> Option<Vec<T>> {
    let wanted = wanted.max(1) as usize;
    let mut found = Vec::new();
    for _ in 0..wanted.saturating_mul(draws_per_world as usize) {
        if let Some(world) = draw() {
            found.push(world);
            if found.len() >= wanted {
                break;
            }
        }
    }
    (!found.is_empty()).then_some(found)
}

/// How bad a turn was (Lichess's names).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark of a drop of `share` of the measure's range: Lichess's
    /// thresholds, 0.1, 0.2 and 0.3.
    pub fn of(share: f64) -> Option<Mark> {
        match share {
            s if s >= 0.3 => Some(Mark::Blunder),
            s if s >= 0.2 => Some(Mark::Mistake),
            s if s >= 0.1 => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One turn analysed.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    #[serde(flatten)]
    pub judged: Judgement,
    /// `before - after`, never below 0.
    pub drop: f64,
    /// Lichess's accuracy of the move, 0 to 100.
    pub accuracy: f64,
    /// Its weight in its player's game accuracy: how volatile the game was
    /// around it (`volatility_weights`).
    pub weight: f64,
    pub mark: Option<Mark>,
}

/// A player's part of a game's analysis.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PlayerAnalysis {
    pub name: String,
    /// 0 to 100; None when the player played no turn.
    pub accuracy: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A game analysed turn by turn.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub game: String,
    pub summary: String,
    pub measure: Measure,
    pub turns: Vec<TurnAnalysis>,
    pub players: Vec<PlayerAnalysis>,
    /// The loser's turn that lost the game: its first blunder, else its
    /// largest drop (an index into `turns`); None when nobody lost, or the
    /// loser never dropped.
    pub turning_point: Option<usize>,
}

/// A game's part of a replay, judged turn by turn (`games/<game>/analysis.rs`).
pub trait AnalysedBody {
    /// What the values are.
    fn measure(&self) -> Measure;
    /// Every turn from index `from` on judged, in order (the ones before
    /// only replayed: a live game's analysis judges what is new); `Err` is
    /// one line (a replay the analyser cannot read).
    fn judge<E>(&self, replay: &Replay<E>, budget: Budget, from: usize) -> Result<Vec<Judgement>, String>;
    /// Every turn judged, with the raw search value a table maps to its
    /// chance where the analyser has one (what `arena measure analysis`
    /// fits the table on); by default none.
    fn judge_searched<E>(
        &self,
        replay: &Replay<E>,
        budget: Budget,
    ) -> Result<Vec<(Judgement, Option<Searched>)>, String> {
        Ok(self.judge(replay, budget, 0)?.into_iter().map(|j| (j, None)).collect())
    }
}

/// A turn's raw search value, as a table maps it to a win chance: the
/// value, the depth the search reached, the free cells of the position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Searched {
    pub value: f64,
    pub depth: u32,
    pub free_cells: u32,
}

/// Analyses `replay` with `budget`.
pub fn analyse<B: ReplayBody + AnalysedBody>(
    replay: &Replay<B>,
    budget: Budget,
) -> Result<GameAnalysis, String> {
    analyse_after(replay, budget, Vec::new())
}

/// Analyses `replay` with `budget`, its first turns judged already
/// (`earlier`, as an analysis of the same game so far judged them): a game
/// in progress, analysed again as it grows, costs its new turns only.
pub fn analyse_after<B: ReplayBody + AnalysedBody>(
    replay: &Replay<B>,
    budget: Budget,
    mut earlier: Vec<Judgement>,
) -> Result<GameAnalysis, String> {
    let new = replay.body.judge(replay, budget, earlier.len())?;
    earlier.extend(new);
    Ok(analysis_of(replay, earlier))
}

/// The analysis of `replay` from its turns' judgements (what `analyse`
/// does once its game's analyser has judged them).
pub fn analysis_of<B: ReplayBody + AnalysedBody>(replay: &Replay<B>, judged: Vec<Judgement>) -> GameAnalysis {
    let measure = replay.body.measure();
    let mut turns: Vec<TurnAnalysis> =
        judged.into_iter().map(|judged| turn_analysis(measure, judged)).collect();
    for (turn, weight) in volatility_weights(measure, &turns).into_iter().enumerate() {
        turns[turn].weight = weight;
    }
    let players = (replay.players.iter().enumerate())
        .map(|(i, p)| player_analysis(&p.name, turns.iter().filter(|t| t.judged.player == i)))
        .collect();
    let turning_point = loser(replay).and_then(|loser| turning_point(&turns, loser));
    GameAnalysis {
        game: replay.body.game().name().to_string(),
        // Its names and reason are the file's words: one line, cut as a
        // player's words are, so that what is printed grows with the turns only.
        summary: player_line(replay.summary()),
        measure,
        turns,
        players,
        turning_point,
    }
}

fn turn_analysis(measure: Measure, judged: Judgement) -> TurnAnalysis {
    let drop = (judged.before - judged.after).max(0.0);
    let share = measure.share(drop);
    TurnAnalysis { drop, accuracy: move_accuracy(share), weight: 1.0, mark: Mark::of(share), judged }
}

/// Each turn's weight in its player's game accuracy, Lichess's: the
/// standard deviation, between 0.5 and 12, of the game's value in percent
/// (the first player's win chance, or the score as a share of its span)
/// over a window of positions of a tenth of the game (2 to 8 positions)
/// around the turn. A move in a settled game (a win chance near 0 or 1
/// whatever is played) weighs little; one where the game swings, much.
pub fn volatility_weights(measure: Measure, turns: &[TurnAnalysis]) -> Vec<f64> {
    let first_players = |t: &TurnAnalysis, v: f64| match measure {
        Measure::WinChance if t.judged.player != 0 => 1.0 - v,
        Measure::WinChance => v,
        Measure::ExpectedScore { span } => v / span,
    };
    let mut values: Vec<f64> = turns.iter().map(|t| 100.0 * first_players(t, t.judged.before)).collect();
    match turns.last() {
        Some(last) => values.push(100.0 * first_players(last, last.judged.after)),
        None => return Vec::new(),
    }
    let size = (values.len() / 10).clamp(2, 8).min(values.len());
    let windows = (0..size.saturating_sub(2)).map(|_| &values[..size]).chain(values.windows(size));
    windows
        .take(turns.len())
        .map(|w| {
            let mean = w.iter().sum::<f64>() / w.len() as f64;
            let variance = w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / w.len() as f64;
            variance.sqrt().clamp(0.5, 12.0)
        })
        .collect()
}

/// Lichess's accuracy of one move from the drop in the mover's win
/// chance (in percent): 103.1668 e^(-0.04354 drop) - 3.1669, within 0..100.
pub fn move_accuracy(share: f64) -> f64 {
    let percent = share * 100.0;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * percent).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// A game's accuracy from its moves' (accuracy, weight), Lichess's game
/// accuracy: the mean of their weighted arithmetic mean (weights from
/// `volatility_weights`) and their harmonic mean, so that one blunder
/// weighs more than in a plain mean.
pub fn game_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let n = moves.len() as f64;
    let weights = moves.iter().map(|m| m.1).sum::<f64>();
    let mean = moves.iter().map(|(a, w)| a * w).sum::<f64>() / weights;
    // A move of accuracy 0 would make the harmonic mean 0: Lichess floors at 1.
    let harmonic = n / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((mean + harmonic) / 2.0)
}

fn player_analysis<'a>(name: &str, turns: impl Iterator<Item = &'a TurnAnalysis>) -> PlayerAnalysis {
    let turns: Vec<&TurnAnalysis> = turns.collect();
    let count = |mark| turns.iter().filter(|t| t.mark == Some(mark)).count() as u32;
    PlayerAnalysis {
        name: player_line(name.to_string()),
        accuracy: game_accuracy(&turns.iter().map(|t| (t.accuracy, t.weight)).collect::<Vec<_>>()),
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
    }
}

/// Who lost: the other seat of a two-player game's winner; the one player
/// of a single-player game it lost.
fn loser<B: ReplayBody>(replay: &Replay<B>) -> Option<usize> {
    match (&replay.result.outcome, replay.result.winner) {
        (Some(outcome), _) => (outcome == "loss").then_some(0),
        (None, Some(winner)) if replay.players.len() == 2 => Some(1 - winner),
        _ => None,
    }
}

/// The loser's first blunder, else its largest drop.
pub fn turning_point(turns: &[TurnAnalysis], loser: usize) -> Option<usize> {
    let own = || turns.iter().enumerate().filter(|(_, t)| t.judged.player == loser);
    own().find(|(_, t)| t.mark == Some(Mark::Blunder)).map(|(i, _)| i).or_else(|| {
        own()
            .filter(|(_, t)| t.drop > 0.0)
            .max_by(|a, b| a.1.drop.total_cmp(&b.1.drop).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_lichess_thresholds() {
        assert_eq!(Mark::of(0.05), None);
        assert_eq!(Mark::of(0.1), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::of(0.44), Some(Mark::Blunder));
        assert_eq!(Measure::ExpectedScore { span: 3.0 }.share(0.9), 0.3);
    }

    #[test]
    fn accuracy_is_lichess_per_move_and_punishes_a_blunder() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
        assert!((move_accuracy(0.1) - 63.5).abs() < 0.5, "{}", move_accuracy(0.1));
        assert_eq!(move_accuracy(1.0), 0.0);
        let steady = game_accuracy(&[(80.0, 1.0); 4]).unwrap();
        let one_blunder = game_accuracy(&[(100.0, 1.0), (100.0, 1.0), (100.0, 1.0), (20.0, 1.0)]).unwrap();
        assert!((steady - 80.0).abs() < 1e-9);
        assert!(one_blunder < steady, "{one_blunder} < {steady}");
        // The blunder in a volatile stretch, the good moves in settled ones:
        // it weighs more.
        let weighted = game_accuracy(&[(100.0, 0.5), (100.0, 0.5), (100.0, 0.5), (20.0, 12.0)]).unwrap();
        assert!(weighted < one_blunder, "{weighted} < {one_blunder}");
        assert_eq!(game_accuracy(&[]), None);
    }

    #[test]
    fn weights_follow_how_much_the_game_swings_around_a_turn() {
        // Twenty turns: settled at first (player 1 at 0.5 throughout), then
        // swinging between 0.2 and 0.8 (the mover's view alternates).
        let turns: Vec<TurnAnalysis> = (0..20)
            .map(|i| {
                let first = if i < 10 {
                    0.5
                } else if i % 2 == 0 {
                    0.8
                } else {
                    0.2
                };
                let mover = if i % 2 == 0 { first } else { 1.0 - first };
                turn(i % 2, mover, mover)
            })
            .collect();
        let weights = volatility_weights(Measure::WinChance, &turns);
        assert_eq!(weights.len(), 20);
        // Windows of 2 positions: a settled one is the floor, 0.5; a swing
        // of 60 points has a deviation of 30, capped at 12.
        assert_eq!(weights[3], 0.5);
        assert_eq!(weights[15], 12.0);
    }

    fn turn(player: usize, before: f64, after: f64) -> TurnAnalysis {
        let judged = Judgement {
            turn: 0,
            player,
            played: String::new(),
            before,
            after,
            best: String::new(),
            best_value: before,
        };
        turn_analysis(Measure::WinChance, judged)
    }

    #[test]
    fn the_turning_point_is_the_first_blunder_else_the_largest_drop() {
        let turns = [
            turn(0, 0.5, 0.45),
            turn(1, 0.55, 0.5),
            turn(0, 0.5, 0.35),
            turn(0, 0.4, 0.05),
            turn(0, 0.1, 0.0),
        ];
        assert_eq!(turning_point(&turns, 0), Some(3));
        let no_blunder = [turn(0, 0.5, 0.45), turn(0, 0.5, 0.35), turn(0, 0.3, 0.25)];
        assert_eq!(turning_point(&no_blunder, 0), Some(1));
        assert_eq!(turning_point(&no_blunder, 1), None);
    }
}
