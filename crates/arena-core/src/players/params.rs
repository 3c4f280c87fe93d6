//! What a player's instances are made with, set from outside: its
//! parameters' values (`--param NAME=VALUE`, a tournament entry's
//! `params`), checked against what the player declares, and its memory
//! (`--memory DIR`). A player keeps them as `Player::Configured`; each
//! instance gets them when it is made (in process through the ABI, in a
//! worker or a program as a `setup` request). Above the games table: a
//! built-in's parameters are its games'.

use std::sync::Arc;

use player_api::{
    abi::AbiVersion,
    params::{Param, Setup},
};

use crate::{
    game::GameId,
    players::{agent::AbiGame, Player},
};

impl Player {
    /// The parameters it accepts, as it declares them: a built-in level's
    /// (in the games that have any), a library's (v1: none), a worker's or
    /// a program's (in its `hello`).
    pub fn params(&self) -> Vec<Param> {
        match self {
            Player::Builtin(level) => {
                let mut params: Vec<Param> = Vec::new();
                for game in GameId::ALL {
                    for param in crate::with_game!(game, G => <G as AbiGame>::builtin_params(*level)) {
                        if !params.iter().any(|p| p.name == param.name) {
                            params.push(param);
                        }
                    }
                }
                params
            }
            Player::Library(library) => library.params(),
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => {
                hello.params.iter().filter_map(|p| p.param().ok()).collect()
            }
            Player::Forfeit { .. } | Player::Person(_) => Vec::new(),
            Player::Configured { player, .. } => player.params(),
        }
    }

    /// Whether it can keep a memory across matches (a built-in, a library
    /// of ABI v2 on, a program whose `hello` says so).
    pub fn keeps_memory(&self) -> bool {
        match self {
            Player::Builtin(_) => true,
            Player::Library(library) => library.abi_version() >= AbiVersion::V2,
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => hello.memory,
            Player::Forfeit { .. } | Player::Person(_) => false,
            Player::Configured { player, .. } => player.keeps_memory(),
        }
    }

    /// The player with parameters `given` (`NAME`, `VALUE` as typed) set,
    /// every other one it declares at its default. `Err` is one sentence
    /// naming the player, the parameter and the fix.
    pub fn with_params(&self, given: &[(String, String)]) -> Result<Player, String> {
        let declared = self.params();
        let (player, setup) = self.setup();
        let mut values = setup.params().to_vec();
        for (name, text) in given {
            let Some(param) = declared.iter().find(|p| &p.name == name) else {
                return Err(self.undeclared(name, &declared));
            };
            let value = param.parse(text).map_err(|why| format!("player '{}': {why}", self.name()))?;
            values.retain(|(n, _)| n != name);
            values.push((name.clone(), value));
        }
        let memory = setup.memory().map(<[u8]>::to_vec);
        let setup = Setup::new(values, memory).with_defaults(&declared);
        Ok(player.configured(setup))
    }

    /// The player with `memory` given to each of its instances (None: none).
    pub fn with_memory(&self, memory: Option<Vec<u8>>) -> Player {
        // A person remembers for themself.
        if let Player::Person(_) = self {
            return self.clone();
        }
        let (player, setup) = self.setup();
        let setup = setup.with_defaults(&self.params()).with_memory(memory);
        player.configured(setup)
    }

    fn configured(&self, setup: Setup) -> Player {
        Player::Configured { player: Box::new(self.clone()), setup: Arc::new(setup) }
    }

    fn undeclared(&self, name: &str, declared: &[Param]) -> String {
        let player = self.name();
        if declared.is_empty() {
            format!("player '{player}' takes no parameters, so not '{name}': remove it (`arena check PLAYER --params` lists what a player takes)")
        } else {
            let names: Vec<&str> = declared.iter().map(|p| p.name.as_str()).collect();
            format!("player '{player}' has no parameter '{name}': it takes {} (`arena check PLAYER --params` shows their ranges)", names.join(", "))
        }
    }
}

/// `NAME=VALUE`, as `--param` takes it.
pub fn parse_assignment(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("'{text}' is not NAME=VALUE: write it as --param mobility=1.5")),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use player_api::params::{Kind, Value};

    use super::*;
    use crate::{
        game_rules::{Budgets, GameOptions},
        games::rules::GameRules,
        play::{clock::Clock, time_control::TimeControl},
        players::{check, Hosting, Level},
    };

    #[test]
    fn hard_takes_its_weights_and_refuses_anything_else_in_one_sentence() {
        let hard = Player::Builtin(Level::Hard);
        let names: Vec<String> = hard.params().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["depth", "move_mobility", "move_lookahead", "trap_mobility", "trap_opponent"]);
        let set = hard.with_params(&[("move_lookahead".into(), "0.75".into())]).unwrap();
        let (inner, setup) = set.setup();
        assert!(matches!(inner, Player::Builtin(Level::Hard)));
        assert_eq!(setup.get("move_lookahead"), Some(Value::Float(0.75)));
        assert_eq!(setup.get("depth"), Some(Value::Int(3)), "every declared parameter is given");
        let err = hard.with_params(&[("speed".into(), "1".into())]).err().unwrap();
        assert!(
            err.contains("player 'hard' has no parameter 'speed': it takes depth, move_mobility"),
            "{err}"
        );
        let err = hard.with_params(&[("depth".into(), "9".into())]).err().unwrap();
        assert!(err.contains("'depth' = 9 is outside its range 1..5"), "{err}");
        let err = Player::Builtin(Level::Easy).with_params(&[("depth".into(), "2".into())]).err().unwrap();
        assert!(err.contains("'easy' takes no parameters"), "{err}");
    }

    /// Every built-in, in every game it declares parameters for, plays
    /// `arena check`'s smoke games without a fault with each of them at its
    /// minimum, its middle and its maximum: a new parameter is tried by
    /// being declared. (Hard at depths 1 and 5 panicked, and in a release
    /// build overflowed its stack: a chance node took a layer it lacked.)
    #[test]
    fn every_builtin_plays_each_declared_parameter_at_its_ends_and_middle() {
        // Short turns on the CPU clock: Expert thinks in a share of its turn.
        let budgets = Budgets {
            turn: TimeControl::PerTurn(Duration::from_millis(50)),
            clock: Clock::Cpu,
            ..Budgets::default()
        };
        let hosting = Hosting::in_process();
        let mut tried = 0;
        for level in Level::BUILTIN {
            for game in GameId::ALL {
                let (plays, declared) = crate::with_game!(game, G => (
                    <G as AbiGame>::builtin_plays(level),
                    <G as AbiGame>::builtin_params(level),
                ));
                if !plays {
                    continue;
                }
                let rules = GameRules::build(game, &GameOptions::default(), budgets).unwrap();
                for param in &declared {
                    for value in [param.min, (param.min + param.max) / 2.0, param.max] {
                        let text = match param.kind {
                            Kind::Int => Value::Int(value.floor() as i64),
                            Kind::Float => Value::Float(value),
                        }
                        .to_string();
                        let player = Player::Builtin(level)
                            .with_params(&[(param.name.clone(), text.clone())])
                            .unwrap();
                        let mut lines = Vec::new();
                        let smoke = check::smoke(&player, &[&rules], &hosting, check::SEED, &mut lines);
                        assert!(
                            smoke.faults == 0 && smoke.spoiled == 0,
                            "{} at {game} with {}={text}:\n{}",
                            level.name(),
                            param.name,
                            lines.join("\n")
                        );
                        tried += 1;
                    }
                }
            }
        }
        // Hard's five and Expert's four, in Trap.
        assert!(tried >= 27, "only {tried} values tried");
    }

    #[test]
    fn an_assignment_is_name_equals_value() {
        assert_eq!(parse_assignment("depth=4"), Ok(("depth".into(), "4".into())));
        assert!(parse_assignment("depth").unwrap_err().contains("--param mobility=1.5"));
        assert!(parse_assignment("=4").is_err());
    }
}
