//! `arena play`: a match between two players, or a series of worlds for one.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use anyhow::{bail, Context, Result};
use arena_core::{
    games::replays::{GameReplay, TableGame},
    play::seeds,
    play::solo::{self, SoloGame, SoloReferee, SoloSettings},
    play::time_control::TimeControl,
    play::two_player::{self, MatchConfig, MatchGame, TurnWatcher, TwoPlayerGame},
    players::memory::{self, MemoryDir},
    players::{
        person::{
            self,
            page::{self, PageTable},
            Person,
        },
        Player, PlayerSpec,
    },
    replay::{
        files::MatchReplays,
        live::{Live, LivePlayers},
        terminal::Paint,
        ReplayPlayer,
    },
    report, with_rules,
};
use arena_server::http::{live::LocalServer, play::Seats};

use super::options::{load_with, setup, GameArgs, GameId, Limits, PlayerControls, PlayerParams};

/// `arena play`: the options (the help text is on `Command::Play`).
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value_t = GameId::DEFAULT)]
    game: GameId,
    /// The first player (seat 1 in odd-numbered games), or the only one.
    player1: PlayerSpec,
    /// The second player (Trap, Hexapawn).
    player2: Option<PlayerSpec>,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Play only game K (1-based) of the match, with the seed and seats it
    /// has in the full match: replays one game that `arena bench` or an
    /// earlier `arena play` reported.
    #[arg(long, value_name = "K", conflicts_with = "games")]
    only_game: Option<u32>,
    /// Seed for the games' randomness (default: a fresh one, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once, each thread with its own player instances
    /// on a core of its own (default: the number of cores; more games than
    /// cores share them). The games and their results are the
    /// same whatever it is. Trap with --watch, and Hexapawn (a learner
    /// learns across its match), play one game at a time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: Option<u16>,
    #[command(flatten)]
    limits: Limits,
    #[command(flatten)]
    controls: PlayerControls,
    #[command(flatten)]
    params: PlayerParams,
    /// Print the board after every turn (games other than Trap: each
    /// game's steps once it ends, drawn as `arena replay` draws them).
    #[arg(long, conflicts_with = "json")]
    watch: bool,
    /// Watch the games in a browser as they are played: serves the replay
    /// viewer on 127.0.0.1 at a free port (printed on stderr), following
    /// the match game after game (docs/replays.md).
    #[arg(long)]
    live: bool,
    /// Print one JSON object on stdout instead (schema: docs/play-json.md).
    #[arg(long)]
    json: bool,
    /// Keep each player's memory across matches in this folder (made if
    /// missing): a player that keeps one (a library of ABI v2, a Python
    /// player with save_memory, a program that says so, menace) gets back
    /// what it handed back at the end of its last match, and may replace
    /// it (1 MiB at most). The games are played one at a time, so that it
    /// learns from each in turn (docs/writing-a-player.md).
    #[arg(long, value_name = "DIR")]
    memory: Option<PathBuf>,
    /// Write each game's replay (docs/replays.md) into this folder, or,
    /// for one game, to this file if it ends in .json or .json.gz.
    #[arg(long, value_name = "FILE_OR_DIR")]
    replay: Option<PathBuf>,
    #[command(flatten)]
    options: GameArgs,
}

pub(crate) fn run(args: PlayArgs) -> Result<ExitCode> {
    let PlayArgs {
        game,
        player1,
        player2,
        games,
        only_game,
        seed,
        concurrency,
        limits,
        controls,
        params,
        watch,
        live,
        json,
        memory,
        replay,
        options,
    } = args;
    let concurrency = concurrency.map_or_else(cores, usize::from);
    if games == 0 {
        bail!("--games 0 plays nothing: ask for at least one game");
    }
    let setup = setup(game, &limits, &options)?;
    arena_core::play::cores::one_core_per_game(concurrency);
    let controls = controls.controls();
    let params = params.params().map(<[_]>::to_vec);
    let run = Run {
        player1,
        player2,
        games,
        only_game,
        seed,
        concurrency,
        controls,
        params,
        watch,
        live,
        json,
        memory,
        replay,
    };
    with_rules!(setup, G, settings => play_match::<G>(settings, run, &limits), solo => play_series::<G>(settings, run, &limits))
}

/// What to play, from the command line.
struct Run {
    player1: PlayerSpec,
    player2: Option<PlayerSpec>,
    games: u32,
    only_game: Option<u32>,
    seed: Option<u64>,
    concurrency: usize,
    /// Each player's own time control (`--tc1`, `--tc2`).
    controls: [Option<TimeControl>; 2],
    /// Each player's parameters (`--param1`, `--param2`).
    params: [Vec<(String, String)>; 2],
    watch: bool,
    live: bool,
    json: bool,
    /// `--memory DIR`.
    memory: Option<PathBuf>,
    replay: Option<PathBuf>,
}

/// A match of a two-player game.
fn play_match<G: TwoPlayerGame + TableGame>(
    settings: G::Settings,
    run: Run,
    limits: &Limits,
) -> Result<ExitCode> {
    let game = G::ID;
    let Some(player2) = run.player2 else {
        let example = if game == GameId::DEFAULT { String::new() } else { format!(" --game {game}") };
        bail!(
            "{game} is a two-player game: name two players (for example: arena play{example} my_bot.so hard)"
        )
    };
    if G::LEARNS && run.only_game.is_some() {
        bail!("--only-game: a {} match is played whole (its players learn from every game)", game.title());
    }
    let hosting = limits.hosting()?;
    let budgets = limits.budgets();
    let mut players = [
        load_with(&run.player1, &run.params[0], &hosting, &budgets)?,
        load_with(&player2, &run.params[1], &hosting, &budgets)?,
    ];
    let seats = if run.live { seat_at_pages(&mut players)? } else { Vec::new() };
    let stores = run
        .memory
        .as_deref()
        .map(|dir| give_memories(dir, [&run.player1, &player2], &mut players))
        .transpose()?;
    let names = display_names(&players);
    let person = players.iter().find_map(Player::person).cloned();
    let quit = person.as_ref().map_or_else(Default::default, Person::quit_flag);
    let (first_game, games) = match run.only_game {
        Some(0) => bail!("--only-game counts from 1"),
        Some(k) => (k - 1, 1),
        None => (0, run.games),
    };
    let sources = [run.player1.to_string(), player2.to_string()];
    let live = run.live.then(|| serve_live_seating(&names, &sources, seats.clone())).transpose()?;
    let config = MatchConfig::<G> {
        settings,
        games,
        seed: run.seed.unwrap_or_else(seeds::fresh),
        hosting,
        first_game,
        // A learner learns from every game, in order: one game at a time;
        // so does a person.
        concurrency: if G::LEARNS || person.is_some() { 1 } else { run.concurrency },
        controls: person_controls(&players, run.controls),
        live: live.as_ref().map(|(_, players)| players.clone()),
    };
    let mut saver =
        run.replay.map(|path| MatchReplays::new(path, games, first_game, &names, &sources)).transpose()?;
    // A game whose referee does not report its turns is drawn once over.
    let drawn = (run.watch && !G::WATCHES_TURNS).then_some(Paint { color: std::io::stdout().is_terminal() });
    // With --memory, a game's replay is saved once the next is played: the
    // match's last with the memories it left (`pending`).
    let mut pending: Option<(GameReplay, u32, [usize; 2])> = None;
    let remembering = stores.is_some();
    let mut on_game = |game: &MatchGame<G>| {
        if saver.is_some() || drawn.is_some() {
            let seated =
                game.seats.map(|p| ReplayPlayer { name: names[p].clone(), source: sources[p].clone() });
            let replay = G::any(game.replay(seated));
            if remembering {
                keep_replay(&replay, game.index, drawn, None);
                let last = pending.replace((replay, game.index, game.seats));
                if let (Some(saver), Some((replay, index, _))) = (saver.as_mut(), last) {
                    saver.save_replay(index, &replay);
                }
            } else {
                keep_replay(&replay, game.index, drawn, saver.as_mut());
            }
        }
        if !run.json {
            arena_core::outln!("{}", G::line(game, first_game + games, [&names[0], &names[1]]));
        }
    };
    let watched = run.watch && G::WATCHES_TURNS;
    let mut show_turn = |seats: [usize; 2], state: &G::State, turn: &G::Turn| {
        let seated = seats.map(|p| names[p].as_str());
        if watched {
            arena_core::outln!("{}", G::watch_turn(state, turn, seated));
        }
        // A person at the table is told every turn as it is played.
        if let Some(person) = &person {
            person.tell(&G::turn_line(turn, seated));
        }
    };
    let watcher: Option<TurnWatcher<G>> = (watched || person.is_some()).then_some(&mut show_turn);
    let (mut result, kept) = match &stores {
        Some(_) => {
            let (result, kept) = two_player::play_remembering(
                [&players[0], &players[1]],
                &config,
                &quit,
                &mut on_game,
                watcher,
            );
            (result, Some(kept))
        }
        None => (
            two_player::play_stopped([&players[0], &players[1]], &config, &quit, &mut on_game, watcher),
            None,
        ),
    };
    let memories = stores.zip(kept).map(|((dir, names), kept)| keep_memories(&dir, &names, kept));
    if let Some((server, _)) = &live {
        page::last_look(&seats, page::CLOSED_AFTER);
        server.close(LAST_LOOK);
    }
    if let Some(mut saver) = saver {
        if let Some((mut replay, index, seats)) = pending {
            replay.memory =
                memories.as_ref().map(|memories| seats.map(|p| seat_memory(&memories[p])).to_vec());
            saver.save_replay(index, &replay);
        }
        eprintln!("{}", saver.finish()?);
    }
    if run.json {
        let text = G::json(&result, sources);
        match memories {
            // The memories after the match, each as JSON if it is JSON (a learner's boxes).
            Some(memories) => {
                let mut doc: serde_json::Value = serde_json::from_str(&text)?;
                doc["memory"] = serde_json::Value::Array(memories);
                arena_core::outln!("{doc}");
            }
            None => arena_core::outln!("{text}"),
        }
    } else {
        for (tally, name) in result.tallies.iter_mut().zip(&names) {
            tally.name = name.clone();
        }
        arena_core::outln!("{}", G::summary(&result));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--memory DIR`: gives each player the memory its store holds (a store
/// it cannot be given is said in one line, and the match played without).
fn give_memories(
    dir: &Path,
    specs: [&PlayerSpec; 2],
    players: &mut [Player; 2],
) -> Result<(MemoryDir, [String; 2])> {
    let stores = MemoryDir::open(dir, memory::DEFAULT_BOUND).map_err(anyhow::Error::msg)?;
    let names = memory::store_names(specs);
    for (player, name) in players.iter_mut().zip(&names) {
        match stores.load(name) {
            Ok(given) => *player = player.with_memory(given),
            Err(why) => eprintln!("warning: {why}"),
        }
    }
    Ok((stores, names))
}

/// `--memory DIR`, after the match: keeps what each player handed back
/// (an oversize or failed one is said in one line; the results stand), and
/// says what each store holds, for `--json`.
fn keep_memories(
    stores: &MemoryDir,
    names: &[String; 2],
    kept: [two_player::Kept; 2],
) -> Vec<serde_json::Value> {
    names
        .iter()
        .zip(kept)
        .map(|(name, kept)| {
            let (stored, refused) = match kept {
                Ok(Some(bytes)) => match stores.keep(name, &bytes) {
                    Ok(_) => (true, None),
                    Err(why) => (false, Some(why)),
                },
                Ok(None) => (false, None),
                Err(why) => (false, Some(format!("the memory of {name} was not handed back: {why}"))),
            };
            if let Some(why) = &refused {
                eprintln!("warning: {why}");
            }
            let held = stores.load(name).ok().flatten();
            let content = held.as_deref().map(|bytes| {
                serde_json::from_slice(bytes)
                    .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(bytes).into()))
            });
            serde_json::json!({
                "store": stores.path(name).display().to_string(),
                "replaced": stored,
                "refused": refused,
                "bytes": held.as_ref().map_or(0, Vec::len),
                "content": content,
            })
        })
        .collect()
}

/// A player's memory after the match as its replay keeps it: its store's
/// content when that is JSON (menace's boxes), else null (opaque bytes).
fn seat_memory(kept: &serde_json::Value) -> serde_json::Value {
    match &kept["content"] {
        serde_json::Value::String(_) => serde_json::Value::Null,
        content => content.clone(),
    }
}

/// A series of a single-player game.
fn play_series<G: SoloReferee + TableGame>(
    settings: SoloSettings<G>,
    run: Run,
    limits: &Limits,
) -> Result<ExitCode> {
    let hosting = limits.hosting()?;
    let budgets = limits.budgets();
    let seed = run.seed.unwrap_or_else(seeds::fresh);
    let watch = run.watch.then_some(Paint { color: std::io::stdout().is_terminal() });
    if let Some(second) = &run.player2 {
        bail!("{} is a single-player game: name one player, not also '{second}'", G::ID);
    }
    if run.controls[1].is_some() {
        bail!("--tc2: {} is a single-player game; give its player's time control with --tc or --tc1", G::ID);
    }
    if run.memory.is_some() {
        bail!("--memory: {} is a single-player game; a memory is kept across two-player matches", G::ID);
    }
    if !run.params[1].is_empty() {
        bail!("--param2: {} is a single-player game; give its player's parameters with --param", G::ID);
    }
    let mut player = [load_with(&run.player1, &run.params[0], &hosting, &budgets)?];
    let seats = if run.live { seat_at_pages(&mut player)? } else { Vec::new() };
    let [player] = player;
    let control = person_controls(std::slice::from_ref(&player), run.controls)[0];
    let settings = control.map_or(settings, |control| settings.with_time(control));
    let person = player.person().cloned();
    let quit = person.as_ref().map_or_else(Default::default, Person::quit_flag);
    // A person plays one game at a time.
    let concurrency = if person.is_some() { 1 } else { run.concurrency };
    let (first, games) = match run.only_game {
        Some(0) => bail!("--only-game counts from 1"),
        Some(k) => (k - 1, 1),
        None => (0, run.games),
    };
    let name = player.name().to_string();
    let live = run
        .live
        .then(|| serve_live_seating(std::slice::from_ref(&name), &[run.player1.to_string()], seats.clone()))
        .transpose()?;
    let mut saver = run
        .replay
        .map(|path| {
            let (names, sources) = ([name.clone()], [run.player1.to_string()]);
            MatchReplays::new(path, games, first, &names, &sources)
        })
        .transpose()?;
    let mut on_game = |game: &SoloGame<G>| {
        if saver.is_some() || watch.is_some() {
            let me = ReplayPlayer { name: name.clone(), source: run.player1.to_string() };
            keep_replay(&G::any(game.replay(&settings, me)), game.index, watch, saver.as_mut());
        }
        if !run.json {
            arena_core::outln!("{}", report::solo::line(game, first + games, &name));
        }
    };
    let series = solo::play_series_until::<G>(
        &player,
        &settings,
        (first, games),
        seed,
        (&hosting, concurrency),
        live.as_ref().map(|(_, players)| players),
        &quit,
        &mut on_game,
    );
    if let Some((server, _)) = &live {
        page::last_look(&seats, page::CLOSED_AFTER);
        server.close(LAST_LOOK);
    }
    if let Some(saver) = saver {
        eprintln!("{}", saver.finish()?);
    }
    if run.json {
        arena_core::outln!("{}", report::solo::json(&series, &name, &run.player1.to_string()));
    } else {
        arena_core::outln!("{}", report::solo::summary(&name, &series));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--live`: the viewer served on 127.0.0.1, its address printed; the
/// players (`names`, `sources`) as replays name them.
pub(super) fn serve_live(names: &[String], sources: &[String]) -> Result<(LocalServer, LivePlayers)> {
    serve_live_seating(names, sources, Vec::new())
}

/// [`serve_live`], with the pages of the persons who play from them
/// (`seats`: each one's address printed, its token in it).
fn serve_live_seating(
    names: &[String],
    sources: &[String],
    seats: Vec<Arc<PageTable>>,
) -> Result<(LocalServer, LivePlayers)> {
    // A person at the table plays without an engine's hints, as on Lichess:
    // its game is analysed afterwards (`arena analyse`), not as it is played.
    let live = if seats.is_empty() { local_live() } else { Live::new() };
    let pages = Seats::new(seats.clone());
    let server = arena_server::http::live::serve_local_with(live.clone(), pages)?;
    let address = server.address;
    eprintln!("live: watch at http://{address}/follow (every game: http://{address}/)");
    for seat in &seats {
        eprintln!(
            "play: your seat is at http://{address}/play/{} (keep the address to yourself)",
            seat.token()
        );
    }
    let players = names
        .iter()
        .zip(sources)
        .map(|(name, source)| ReplayPlayer { name: name.clone(), source: source.clone() })
        .collect();
    Ok((server, LivePlayers { live, players }))
}

/// A local run's live games, each analysed as it is played (the viewer's
/// advantage chart; docs/analysis.md, "In the viewer"), with `arena
/// analyse`'s budget.
pub(super) fn local_live() -> Live {
    Live::with_analyst(arena_core::games::replays::live_analyst(arena_core::analysis::Budget::default()))
}

/// How long a run that is over waits for the pages watching it to read its end.
pub(super) const LAST_LOOK: std::time::Duration = std::time::Duration::from_secs(2);

/// `--watch` and `--replay` for a game not watched turn by turn, once it ends:
/// its steps drawn as `arena replay` draws them, its replay saved.
fn keep_replay(replay: &GameReplay, index: u32, watch: Option<Paint>, saver: Option<&mut MatchReplays>) {
    if let Some(paint) = watch {
        for frame in replay.frames(paint) {
            arena_core::outln!("{frame}\n");
        }
    }
    if let Some(saver) = saver {
        saver.save_replay(index, replay);
    }
}

/// `--live`: each person among `players` plays from a page of its own
/// instead of the terminal; the pages' tables, to serve.
fn seat_at_pages(players: &mut [Player]) -> Result<Vec<Arc<PageTable>>> {
    let mut seats = Vec::new();
    for player in players.iter_mut().filter(|p| p.person().is_some()) {
        let table = Arc::new(PageTable::new().context("cannot make a seat's token")?);
        *player = Player::Person(Person::new(table.clone()));
        seats.push(table);
    }
    Ok(seats)
}

/// Each player's own time control: the one given (`--tc1`, `--tc2`), or
/// for a person with none, a person's default (no limit per turn, a cap
/// per game); a bot facing a person keeps its own.
fn person_controls(players: &[Player], given: [Option<TimeControl>; 2]) -> [Option<TimeControl>; 2] {
    let mut controls = given;
    for (control, player) in controls.iter_mut().zip(players) {
        if player.person().is_some() && control.is_none() {
            *control = Some(person::DEFAULT_CONTROL);
        }
    }
    controls
}

/// Names to show: the players' own names, told apart when they are equal.
pub(super) fn display_names(players: &[Player; 2]) -> [String; 2] {
    let [a, b] = [players[0].name(), players[1].name()];
    if a == b {
        [format!("{a}#1"), format!("{b}#2")]
    } else {
        [a.to_string(), b.to_string()]
    }
}

/// The cores this machine has: the default number of games at once.
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
