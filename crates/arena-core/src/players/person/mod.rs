//! A person at the table: `human` as a player. The referee drives a person
//! like any player (`Agent`): the person's answer is judged by the same
//! rules, timed on its own clock, recorded and replayed the same way.
//! What a person is shown and how a typed line becomes an action is each
//! game's (`PersonGame`, in `games/<game>/person.rs`); how the person is
//! reached, a terminal or a page, is a `Table` (`terminal.rs`, the live
//! viewer's). This module names no game.
//!
//! Whatever a person types is untrusted: a line that is not a legal action
//! is refused with one line saying why and asked again (a typo never
//! loses); `resign`, `quit` (no further game) and the end of input give
//! the game up (`Fault::Resigned`).

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use serde::Serialize;

use crate::{
    game::{Agent, Game},
    play::clock::Clock,
    play::fault::Fault,
    play::time_control::TimeControl,
    replay::terminal::Paint,
};

pub mod page;
pub mod terminal;

/// What the player is called on the command line and in replays.
pub const NAME: &str = "human";

/// A person's time control when none is given: no limit per turn, 30
/// minutes for the whole game.
pub const DEFAULT_CONTROL: TimeControl =
    TimeControl::Bank { base: Duration::from_secs(30 * 60), increment: Duration::ZERO, cap: None };

/// A game as a person plays it: what the person sees before acting and
/// how a typed line becomes an action. A turn may be asked in parts (Trap:
/// the move, then the throw): `given` holds the parts answered so far, as
/// `answer` wrote them.
pub trait PersonGame: Game {
    /// What a person keeps in mind over a game: the start's information,
    /// and what a game that hides its world showed so far.
    type Sight: Send + 'static;

    /// How the game's actions are typed, for `help`.
    const NOTATION: &'static str;

    fn sight(info: &Self::Info) -> Self::Sight;
    /// The person is shown `request` (once per request); a game that shows
    /// its whole position in every request keeps nothing of it (the default).
    fn look(_sight: &mut Self::Sight, _request: &Self::Request) {}
    /// The question to answer next, the board drawn as `arena replay` draws it.
    fn question(sight: &Self::Sight, request: &Self::Request, given: &[String], paint: Paint) -> Question;
    /// A typed line: the next part, the whole action, or why it is refused
    /// (one line).
    fn answer(
        sight: &Self::Sight,
        request: &Self::Request,
        given: &[String],
        line: &str,
    ) -> Result<Answer<Self::Action>, String>;
    /// The action that resigns, if the game has one (Hexapawn's); else a
    /// resignation is a `Fault::Resigned`.
    fn resignation() -> Option<Self::Action> {
        None
    }
    /// How the game ended, for the person.
    fn over(sight: &Self::Sight, over: &Self::Over) -> String;
}

/// What a person is asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Question {
    /// The position, drawn (its first line says whose turn it is).
    pub board: String,
    /// What to answer: "your move (row col)".
    pub ask: String,
    /// Every legal answer.
    pub choices: Vec<Choice>,
    /// The board as squares a page draws and a person clicks, row by row
    /// (row 0 on top), for the games played by clicking; else empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<Vec<Square>>,
}

/// One legal answer: as it is typed, and as it is given on a page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    pub text: String,
    /// The squares clicked, in order, to give it (`[row, col]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clicks: Vec<[u8; 2]>,
    /// The key that gives it (a `KeyboardEvent.key`: "ArrowUp", "f").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<&'static str>,
    /// What the page shows on squares while it is pointed at (Trap's
    /// throw: where it may land, with each chance).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shows: Vec<([u8; 2], String)>,
}

impl Choice {
    /// An answer given by typing it (or its button).
    pub fn typed(text: impl Into<String>) -> Choice {
        Choice { text: text.into(), clicks: Vec::new(), key: None, shows: Vec::new() }
    }

    /// An answer given by clicking `clicks`.
    pub fn clicked(text: impl Into<String>, clicks: Vec<[u8; 2]>) -> Choice {
        Choice { clicks, ..Choice::typed(text) }
    }

    /// An answer given by a key too.
    pub fn with_key(self, key: &'static str) -> Choice {
        Choice { key: Some(key), ..self }
    }
}

/// A square of a clickable board: what stands there, and a note (a chance).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Square {
    pub glyph: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Square {
    pub fn new(glyph: impl Into<String>) -> Square {
        Square { glyph: glyph.into(), note: String::new() }
    }
}

/// A typed line, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<A> {
    /// A part of the turn, as it is kept in `given`.
    Part(String),
    Done(A),
}

/// What a table hands back when asked for a line.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Line(String),
    /// The input ended (a closed pipe, a page that went away).
    Closed,
    /// Nothing came before the deadline.
    Late,
}

/// Where a person sits: how it is shown things and asked for a line.
pub trait Table: Send + Sync {
    /// Whether to colour what is drawn.
    fn paint(&self) -> Paint;
    /// A new question.
    fn ask(&self, question: &Question, left: Option<Duration>);
    /// One line of news: a turn, a game's end.
    fn tell(&self, text: &str);
    /// A line on the question asked (a refusal, help), and the question again.
    fn again(&self, text: &str, ask: &str);
    /// The next line typed, waiting until `deadline`.
    fn read(&self, deadline: Instant) -> Read;
}

/// A person, as a player: its table, and whether it quit the match (no
/// later game is played: the caller's stop flag).
#[derive(Clone)]
pub struct Person {
    table: Arc<dyn Table>,
    quit: Arc<AtomicBool>,
}

impl std::fmt::Debug for Person {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Person")
    }
}

impl Person {
    pub fn new(table: Arc<dyn Table>) -> Person {
        Person { table, quit: Arc::new(AtomicBool::new(false)) }
    }

    /// A person at this process's terminal (stdin, stderr). Persons at one
    /// terminal (a hot seat) share its `quit`: either ends the match.
    pub fn at_terminal() -> Person {
        static QUIT: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
        let quit = QUIT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
        Person { table: Arc::new(terminal::Terminal::new()), quit }
    }

    /// A line of news for the person (a turn played, a game's end).
    pub fn tell(&self, text: &str) {
        self.table.tell(text);
    }

    /// Set once the person quits: the match plays no further game.
    pub fn quit_flag(&self) -> Arc<AtomicBool> {
        self.quit.clone()
    }

    /// A fresh agent of game `G` for this person.
    pub fn agent<G: PersonGame>(&self) -> PersonAgent<G> {
        PersonAgent { person: self.clone(), sight: None }
    }
}

/// A person playing one game after another, as a referee drives it.
pub struct PersonAgent<G: PersonGame> {
    person: Person,
    sight: Option<G::Sight>,
}

const HELP: &str = "type a legal action as listed; 'resign' gives this game up, 'quit' ends the match (results so far are kept), 'help' shows this";

/// Gives the game up: the game's resigning action, or the fault.
fn resign<G: PersonGame>(table: &dyn Table, how: &str) -> Result<G::Action, Fault> {
    table.tell(&format!("{how}: the game is given up"));
    G::resignation().ok_or_else(|| Fault::Resigned(how.to_string()))
}

impl<G: PersonGame> Agent<G> for PersonAgent<G> {
    fn new_game(&mut self, info: G::Info, _budget: Duration) -> Result<(), Fault> {
        if self.person.quit.load(Ordering::SeqCst) {
            return Err(Fault::Resigned("quit".into()));
        }
        self.sight = Some(G::sight(&info));
        Ok(())
    }

    fn act(&mut self, request: G::Request, budget: Duration) -> Result<G::Action, Fault> {
        let started = Instant::now();
        // A budget too far to add (no limit) waits for a year.
        let deadline = started.checked_add(budget).unwrap_or(started + Duration::from_secs(365 * 86_400));
        let table = self.person.table.clone();
        let Some(sight) = self.sight.as_mut() else {
            return Err(Fault::Protocol("a person was asked to act before its game started".into()));
        };
        G::look(sight, &request);
        let mut given: Vec<String> = Vec::new();
        loop {
            let question = G::question(sight, &request, &given, table.paint());
            table.ask(&question, Some(deadline.saturating_duration_since(Instant::now())));
            let part = loop {
                let line = match table.read(deadline) {
                    Read::Line(line) => line,
                    Read::Closed => return resign::<G>(&*table, "end of input"),
                    Read::Late => {
                        let used = started.elapsed();
                        table.tell("out of time: the game is lost");
                        // A person is held to the budget itself: no grace.
                        return Err(Fault::Timeout {
                            what: "turn",
                            used,
                            budget,
                            grace: Duration::ZERO,
                            killed: false,
                            clock: Clock::Wall,
                            backstop: false,
                        });
                    }
                };
                let words = line.trim();
                match words.to_ascii_lowercase().as_str() {
                    "" => table.again("(an empty line: type an action, or 'help')", &question.ask),
                    "help" | "?" => table.again(&format!("{HELP}\n{}", G::NOTATION), &question.ask),
                    "resign" => return resign::<G>(&*table, "resigned"),
                    "quit" | "exit" => {
                        self.person.quit.store(true, Ordering::SeqCst);
                        return resign::<G>(&*table, "quit");
                    }
                    _ => match G::answer(sight, &request, &given, words) {
                        Ok(Answer::Done(action)) => return Ok(action),
                        Ok(Answer::Part(part)) => break part,
                        Err(why) => table.again(&format!("refused: {why} ('help' for help)"), &question.ask),
                    },
                }
            };
            given.push(part);
        }
    }

    fn game_over(&mut self, over: G::Over) {
        if let Some(sight) = &self.sight {
            self.person.table.tell(&G::over(sight, &over));
        }
    }
}

/// A line's numbers: `3 4`, `(3,4)`, `3,4`, `(2,1)->(1,1)`. A word that is
/// not a number is refused, named.
pub fn numbers(line: &str) -> Result<Vec<i64>, String> {
    let spaced: String = line
        .chars()
        .map(|c| if matches!(c, '(' | ')' | ',' | '>' | '[' | ']' | ';') { ' ' } else { c })
        .collect();
    spaced
        .split_whitespace()
        .filter(|word| *word != "-" && *word != "->" && *word != "to")
        .map(|word| {
            let word = word.strip_suffix('-').unwrap_or(word);
            word.parse::<i64>().map_err(|_| format!("'{}' is not a number", cut(word)))
        })
        .collect()
}

/// A game's end as a person reads it: "game over: you won (trapped)".
pub fn ended(outcome: player_api::Outcome, reason: &str) -> String {
    let result = match outcome {
        player_api::Outcome::Win => "you won",
        player_api::Outcome::Loss => "you lost",
        player_api::Outcome::Draw => "a draw",
    };
    format!("game over: {result} ({})", cut_long(reason))
}

/// Text from the arena's records, cut to one screen line or so.
fn cut_long(text: &str) -> String {
    let mut out: String = text.chars().take(200).collect();
    if text.chars().count() > 200 {
        out.push_str("...");
    }
    out
}

/// A word a person typed, cut short for a message.
pub fn cut(word: &str) -> String {
    let mut out: String = word.chars().take(24).collect();
    if word.chars().count() > 24 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_in_the_forms_people_type() {
        assert_eq!(numbers("3 4"), Ok(vec![3, 4]));
        assert_eq!(numbers("(3,4)"), Ok(vec![3, 4]));
        assert_eq!(numbers(" 3, 4 "), Ok(vec![3, 4]));
        assert_eq!(numbers("(2,1)->(1,1)"), Ok(vec![2, 1, 1, 1]));
        assert_eq!(numbers("2 1 -> 1 1"), Ok(vec![2, 1, 1, 1]));
        assert_eq!(numbers("(-1,3)"), Ok(vec![-1, 3]));
        assert_eq!(numbers("3 x"), Err("'x' is not a number".into()));
        assert!(numbers(&"9".repeat(40)).unwrap_err().contains("..."));
    }
}
