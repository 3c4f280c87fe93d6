//! Wumpus World as a person plays it: an action by name or key (`forward`
//! or `f`, `left`/`l`, `right`/`r`, `grab`/`g`, `shoot`/`s`, `climb`/`c`),
//! among those the rules allow now (`WumpusRequest::check`). The cave is
//! drawn as the replay draws it, as far as the person has seen it: the
//! squares it stood on, with what it sensed there.

use std::collections::BTreeMap;

use player_api::wumpus::{Percept, WumpusAction, WumpusGameInfo, WumpusOver, WumpusRequest};

use super::{replay, Wumpus};
use crate::{
    players::person::{cut, ended, Answer, Choice, PersonGame, Question},
    replay::grid::{self, arrow},
    replay::terminal::{self, Paint},
};

/// What the person knows: the game's rules and what it sensed where.
pub struct WumpusSight {
    info: WumpusGameInfo,
    sensed: BTreeMap<(u8, u8), Percept>,
}

impl PersonGame for Wumpus {
    type Sight = WumpusSight;

    const NOTATION: &'static str = "Wumpus World: an action by name or key: forward (f), left (l: turn left), right (r: turn right), grab (g), shoot (s), climb (c). x is the column, y the row from the bottom; the arrow is you, facing its way. Letters: s stench (a wumpus next to it), b breeze (a pit), g glitter (the gold is here).";

    fn sight(info: &WumpusGameInfo) -> WumpusSight {
        WumpusSight { info: *info, sensed: BTreeMap::new() }
    }

    fn look(sight: &mut WumpusSight, request: &WumpusRequest) {
        sight.sensed.insert((request.at.x, request.at.y), request.percept);
    }

    fn question(sight: &WumpusSight, request: &WumpusRequest, _: &[String], paint: Paint) -> Question {
        Question {
            board: format!("Wumpus World, action {}:\n{}", request.actions + 1, cave(sight, request, paint)),
            ask: format!(
                "your action ({})",
                legal(sight, request).map(|a| format!("{}: {a}", key(a))).collect::<Vec<_>>().join(", ")
            ),
            choices: legal(sight, request)
                .map(|a| Choice::typed(a.to_string()).with_key(page_key(a)))
                .collect(),
            squares: Vec::new(),
        }
    }

    fn answer(
        sight: &WumpusSight,
        request: &WumpusRequest,
        _: &[String],
        line: &str,
    ) -> Result<Answer<WumpusAction>, String> {
        let word = line.trim().to_ascii_lowercase().replace(['_', '-'], " ");
        let action = WumpusAction::ALL
            .into_iter()
            .find(|&a| word == a.to_string() || word == key(a) || word == short(a))
            .ok_or_else(|| {
                format!("'{}' is not an action: forward, left, right, grab, shoot or climb", cut(line))
            })?;
        request.check(sight.info.config.goal, action).map_err(|why| why.to_string())?;
        Ok(Answer::Done(action))
    }

    fn over(_: &WumpusSight, over: &WumpusOver) -> String {
        format!("{}, score {}", ended(over.outcome, &over.reason), over.score)
    }
}

fn legal<'a>(sight: &'a WumpusSight, request: &'a WumpusRequest) -> impl Iterator<Item = WumpusAction> + 'a {
    WumpusAction::ALL.into_iter().filter(|&a| request.check(sight.info.config.goal, a).is_ok())
}

/// The key that types an action.
fn key(action: WumpusAction) -> &'static str {
    match action {
        WumpusAction::Forward => "f",
        WumpusAction::TurnLeft => "l",
        WumpusAction::TurnRight => "r",
        WumpusAction::Grab => "g",
        WumpusAction::Shoot => "s",
        WumpusAction::Climb => "c",
    }
}

/// The key that gives an action on a page: the arrows walk and turn.
fn page_key(action: WumpusAction) -> &'static str {
    match action {
        WumpusAction::Forward => "ArrowUp",
        WumpusAction::TurnLeft => "ArrowLeft",
        WumpusAction::TurnRight => "ArrowRight",
        other => key(other),
    }
}

/// A turn's short name: `left`, `right`; the others' own.
fn short(action: WumpusAction) -> &'static str {
    match action {
        WumpusAction::TurnLeft => "left",
        WumpusAction::TurnRight => "right",
        _ => "",
    }
}

/// The cave as far as seen, top row first, in the replay's glyphs: the
/// agent an arrow, a square stood on `,` or the first letters of what was
/// sensed there, `.` the rest; then the senses and the state.
fn cave(sight: &WumpusSight, request: &WumpusRequest, paint: Paint) -> String {
    let size = sight.info.config.size;
    let mut text = grid::drawn(size, |here| {
        let (x, y) = (here.x, here.y);
        if request.at == here {
            paint.on(replay::AGENT, arrow(request.facing.into()))
        } else {
            match sight.sensed.get(&(x, y)) {
                Some(p) if p.glitter => paint.on(replay::GOLD, "g"),
                Some(p) if p.stench || p.breeze => paint.on(
                    replay::VISITED,
                    if p.stench && p.breeze {
                        "x"
                    } else if p.stench {
                        "s"
                    } else {
                        "b"
                    },
                ),
                Some(_) => paint.on(replay::VISITED, ","),
                None => paint.on(replay::FREE, "."),
            }
        }
    });
    let p = &request.percept;
    let senses = [
        (p.stench, "stench"),
        (p.breeze, "breeze"),
        (p.glitter, "glitter"),
        (p.bump, "bump"),
        (p.scream, "scream"),
    ];
    text.push_str(&format!(
        "\nyou are at {} facing {:?}; senses: {}   arrows {}   gold {}   score {}  (x: stench and breeze)",
        request.at,
        request.facing,
        terminal::listed(&senses, "none"),
        request.arrows,
        if request.has_gold { "carried" } else { "not yet" },
        request.score
    ));
    text
}

#[cfg(test)]
mod tests {
    use player_api::wumpus::{WumpusConfig, WumpusWorld};

    use super::*;

    #[test]
    fn actions_are_typed_by_name_or_key_and_what_the_rules_forbid_is_refused() {
        let config = WumpusConfig::default();
        let info =
            WumpusGameInfo { config, start: WumpusWorld::START, arrows: 1, step_budget_us: 1, seed: 1 };
        let mut sight = Wumpus::sight(&info);
        let request = WumpusRequest {
            percept: Percept::default(),
            at: player_api::grid::Coord::new(1, 0),
            facing: player_api::grid::Dir::East,
            arrows: 0,
            has_gold: false,
            actions: 3,
            score: -3,
        };
        Wumpus::look(&mut sight, &request);
        let answer = |line: &str| Wumpus::answer(&sight, &request, &[], line);
        assert_eq!(answer("f"), Ok(Answer::Done(WumpusAction::Forward)));
        assert_eq!(answer("Turn_Left"), Ok(Answer::Done(WumpusAction::TurnLeft)));
        assert_eq!(answer("right"), Ok(Answer::Done(WumpusAction::TurnRight)));
        assert_eq!(answer("shoot"), Err("shoot: no arrow left".into()));
        assert_eq!(answer("grab"), Err("grab at (1,0): no gold here".into()));
        assert!(answer("jump").unwrap_err().starts_with("'jump' is not an action"));
        let question = Wumpus::question(&sight, &request, &[], Paint { color: false });
        assert!(question.choices.iter().all(|c| c.text != "shoot" && c.text != "grab"));
        assert_eq!(question.choices[0].key, Some("ArrowUp"));
        assert!(question.board.contains("  0 . >"), "{}", question.board);
    }
}
