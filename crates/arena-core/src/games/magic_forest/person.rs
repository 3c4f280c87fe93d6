//! Magic Forest as a person plays it: an action by name or key, a move
//! (`up`/`u`, `down`/`d`, `left`/`l`, `right`/`r`) or a stone thrown
//! (`throw up`, `t u`, ...). Every action is legal; a line that names
//! none is refused. The forest is drawn in the replay's glyphs as far as
//! the wanderer has seen it: the tiles it stood on, with their clues.

use std::collections::BTreeMap;

use player_api::{
    grid::Dir,
    magic_forest::{ActionKind, ForestAction, ForestGameInfo, ForestOver, ForestRequest},
};

use super::{replay, MagicForest};
use crate::{
    players::person::{cut, ended, Answer, Choice, PersonGame, Question},
    replay::{grid, terminal::Paint},
};

/// What the wanderer knows of the forest it is in: the tiles it stood on
/// and their clues (bones, leaves).
pub struct ForestSight {
    forest: u8,
    seen: BTreeMap<(u8, u8), (bool, bool)>,
}

const DIRS: [(Dir, &str, &str); 4] =
    [(Dir::North, "up", "u"), (Dir::South, "down", "d"), (Dir::West, "left", "l"), (Dir::East, "right", "r")];

impl PersonGame for MagicForest {
    type Sight = ForestSight;

    const NOTATION: &'static str = "Magic Forest: move up (u), down (d), left (l), right (r); throw a stone with 'throw up' (t u), ... The portal is unseen: step on it. Clues on a tile: b bones (a monster next to it), v leaves (a trap), x both.";

    fn sight(_: &ForestGameInfo) -> ForestSight {
        ForestSight { forest: 0, seen: BTreeMap::new() }
    }

    fn look(sight: &mut ForestSight, request: &ForestRequest) {
        if request.forest != sight.forest {
            *sight = ForestSight { forest: request.forest, seen: BTreeMap::new() };
        }
        sight.seen.insert((request.at.x, request.at.y), (request.bones, request.leaves));
    }

    fn question(sight: &ForestSight, request: &ForestRequest, _: &[String], paint: Paint) -> Question {
        let choices = [ActionKind::Move, ActionKind::Throw]
            .into_iter()
            .flat_map(|kind| DIRS.iter().map(move |&(dir, _, _)| ForestAction { kind, dir }))
            .map(|a| {
                let choice = Choice::typed(written(a));
                // The arrows walk; with Shift held (a page's "Shift+ArrowUp") they throw.
                match (a.kind, a.dir) {
                    (ActionKind::Move, Dir::North) => choice.with_key("ArrowUp"),
                    (ActionKind::Move, Dir::South) => choice.with_key("ArrowDown"),
                    (ActionKind::Move, Dir::West) => choice.with_key("ArrowLeft"),
                    (ActionKind::Move, Dir::East) => choice.with_key("ArrowRight"),
                    (ActionKind::Throw, Dir::North) => choice.with_key("Shift+ArrowUp"),
                    (ActionKind::Throw, Dir::South) => choice.with_key("Shift+ArrowDown"),
                    (ActionKind::Throw, Dir::West) => choice.with_key("Shift+ArrowLeft"),
                    (ActionKind::Throw, Dir::East) => choice.with_key("Shift+ArrowRight"),
                }
            })
            .collect();
        Question {
            board: forest(sight, request, paint),
            ask: "your action".into(),
            choices,
            squares: Vec::new(),
        }
    }

    fn answer(
        _: &ForestSight,
        _: &ForestRequest,
        _: &[String],
        line: &str,
    ) -> Result<Answer<ForestAction>, String> {
        let lower = line.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let (kind, dir) = match words[..] {
            [dir] => (ActionKind::Move, dir),
            ["move" | "m" | "walk", dir] => (ActionKind::Move, dir),
            ["throw" | "t" | "stone", dir] => (ActionKind::Throw, dir),
            _ => {
                return Err(format!(
                    "'{}' is not an action: up, down, left, right, or 'throw up' ...",
                    cut(line)
                ))
            }
        };
        let dir = DIRS
            .iter()
            .find(|(_, name, key)| dir == *name || dir == *key)
            .map(|(dir, _, _)| *dir)
            .ok_or_else(|| format!("'{}' is not a direction: up, down, left or right", cut(dir)))?;
        Ok(Answer::Done(ForestAction { kind, dir }))
    }

    fn over(_: &ForestSight, over: &ForestOver) -> String {
        format!(
            "{}, score {}, forests cleared {}",
            ended(over.outcome, &over.reason),
            over.score,
            over.forests_cleared
        )
    }
}

/// An action as it may be typed.
fn written(action: ForestAction) -> String {
    let (_, name, _) = DIRS.iter().find(|(dir, _, _)| *dir == action.dir).expect("every direction");
    match action.kind {
        ActionKind::Move => name.to_string(),
        ActionKind::Throw => format!("throw {name}"),
    }
}

/// The forest as far as seen, top row first: `@` the wanderer, a tile
/// stood on `,` or its clue, `.` the rest; then the senses.
fn forest(sight: &ForestSight, request: &ForestRequest, paint: Paint) -> String {
    let size = request.size;
    let mut text = format!("Magic Forest, forest {} ({size}x{size}):\n", request.forest + 1);
    text.push_str(&grid::drawn(size, |here| {
        let (x, y) = (here.x, here.y);
        if request.at == here {
            paint.on(replay::WANDERER, "@")
        } else {
            match sight.seen.get(&(x, y)) {
                Some((true, true)) => paint.on(replay::KILLED, "x"),
                Some((true, false)) => paint.on(replay::KILLED, "b"),
                Some((false, true)) => paint.on(replay::KILLED, "v"),
                Some(_) => paint.on(replay::START, ","),
                None => paint.on(replay::FREE, "."),
            }
        }
    }));
    text.push_str(&format!(
        "\nyou are at {}; senses: {}   actions left {}   score {}",
        request.at,
        replay::senses(request.bones, request.leaves, request.died),
        request.actions_left,
        request.score
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_throws_are_typed_by_name_or_key() {
        let info = ForestGameInfo { config: Default::default(), step_budget_us: 1, seed: 1 };
        let mut sight = MagicForest::sight(&info);
        let request = ForestRequest {
            at: player_api::grid::Coord::new(1, 1),
            size: 3,
            forest: 0,
            bones: true,
            leaves: false,
            died: false,
            actions_left: 180,
            score: 0,
        };
        MagicForest::look(&mut sight, &request);
        let answer = |line: &str| MagicForest::answer(&sight, &request, &[], line);
        assert_eq!(answer("up"), Ok(Answer::Done(ForestAction::walk(Dir::North))));
        assert_eq!(answer("L"), Ok(Answer::Done(ForestAction::walk(Dir::West))));
        assert_eq!(answer("throw down"), Ok(Answer::Done(ForestAction::throw(Dir::South))));
        assert_eq!(answer("t r"), Ok(Answer::Done(ForestAction::throw(Dir::East))));
        assert!(answer("jump").unwrap_err().starts_with("'jump' is not a direction"));
        assert!(answer("throw far away").unwrap_err().starts_with("'throw far away' is not an action"));
        let question = MagicForest::question(&sight, &request, &[], Paint { color: false });
        assert_eq!(question.choices.len(), 8);
        assert!(question.board.contains("  1 . @ ."), "{}", question.board);
    }
}
