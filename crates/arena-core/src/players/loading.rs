//! What of a player needs every game, so sits above the games table:
//! loading a player from its spec (a library is probed by making a player
//! of its first game, as a worker would), and the games a player plays.
//! The rest of a player (`players/mod.rs`, `plugin.rs`) names no game.

use std::time::Duration;

use crate::{
    game::GameId,
    play::fault::{player_text, Fault, FaultKind},
    players::isolation::{Hosted, Spare, Worker, WorkerLimits},
    players::plugin::{LoadError, PlayerLibrary},
    players::{Hosting, Player, PlayerSpec},
};

impl Player {
    /// Loads the player a spec names. Under isolation a library is never
    /// loaded into this process: a first worker loads it and introduces it.
    pub fn load(spec: &PlayerSpec, hosting: &Hosting, startup: Duration) -> Result<Player, LoadError> {
        match (spec, &hosting.limits) {
            (PlayerSpec::Builtin(level), _) => Ok(Player::Builtin(*level)),
            (PlayerSpec::Person, _) => Ok(Player::Person(crate::players::person::Person::at_terminal())),
            (PlayerSpec::Program(program), limits) => {
                let failed = |message| LoadError::Program { spec: program.to_string(), message };
                let limits = limits.clone().unwrap_or_else(WorkerLimits::for_programs);
                let launch = program.launch(&limits.pass_env).map_err(failed)?;
                let hosted = Hosted::Program(launch.clone());
                match Worker::spawn(&hosted, &limits, startup) {
                    Ok(worker) => {
                        let hello = worker.hello.clone();
                        let spare = Spare::keep(worker, &hosted, &limits);
                        Ok(Player::Program { program: program.clone(), launch, hello, spare })
                    }
                    Err(fault) if fault.kind() == FaultKind::Machine => {
                        Err(LoadError::Overloaded(fault.to_string()))
                    }
                    Err(fault) => Err(failed(program.explain(&launch, fault.cut()))),
                }
            }
            (PlayerSpec::Library(path), Some(limits)) if hosting.isolate_libraries => {
                if !path.is_file() {
                    return Err(LoadError::Missing(path.clone()));
                }
                let path = path.canonicalize().unwrap_or_else(|_| path.clone());
                let hosted = Hosted::Library(path.clone());
                match Worker::spawn(&hosted, limits, startup) {
                    Ok(worker) => {
                        let hello = worker.hello.clone();
                        Ok(Player::Isolated { path, hello, spare: Spare::keep(worker, &hosted, limits) })
                    }
                    Err(fault) if fault.kind() == FaultKind::Machine => {
                        Err(LoadError::Overloaded(fault.to_string()))
                    }
                    Err(fault) => {
                        let message = match fault.cut() {
                            Fault::Unavailable(message) => message,
                            other => other.to_string(),
                        };
                        Err(LoadError::InWorker { path, message })
                    }
                }
            }
            (PlayerSpec::Library(path), _) => {
                let library = PlayerLibrary::load(path)?;
                // Checked as a worker's declaration is (`protocol::declared`).
                player_api::params::check_declared(&library.params()).map_err(|detail| {
                    LoadError::Failed { path: path.clone(), detail: player_text(detail) }
                })?;
                // Make one player now, as a worker would (of the first game it
                // plays, in the table's order), so that a player that cannot
                // start is a load error in both modes.
                let made = match library.games().first().copied() {
                    Some(game) => {
                        crate::with_game!(game, G => library.new_player::<G>(&Default::default()).map(drop))
                    }
                    None => Err("it exports no player of any game".to_string()),
                };
                made.map_err(|detail| LoadError::Failed { path: path.clone(), detail: player_text(detail) })?;
                Ok(Player::Library(library))
            }
        }
    }

    /// The games this player plays.
    pub fn games(&self) -> Vec<String> {
        match self {
            Player::Person(_) => GameId::ALL.map(|g| g.name().to_string()).into(),
            Player::Builtin(level) => GameId::ALL
                .into_iter()
                .filter(|&game| crate::with_game!(game, G => <G as crate::players::agent::AbiGame>::builtin_plays(*level)))
                .map(|g| g.name().to_string())
                .collect(),
            Player::Library(library) => library.games().iter().map(|g| g.to_string()).collect(),
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => hello.games.clone(),
            Player::Forfeit { .. } => Vec::new(),
            Player::Configured { player, .. } => player.games(),
        }
    }
}

impl PlayerLibrary {
    /// The games this library can play, in the table's order.
    pub fn games(&self) -> Vec<GameId> {
        GameId::ALL.into_iter().filter(|&game| crate::with_game!(game, G => self.offers::<G>())).collect()
    }
}
