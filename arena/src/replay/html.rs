//! The HTML viewer: one self-contained file (styles, script and the replay
//! inline; nothing fetched) that draws the game turn by turn. The page and
//! its controls are shared (html/viewer.*); each game adds one script that
//! draws its board (`games/<game>/viewer.js`, its `ReplayGame::VIEWER`), keyed by the replay's `game` field.

use super::{Body, Replay, ReplayGame};
use crate::game::{with_game, GameId};

const PAGE: &str = include_str!("html/viewer.html");
const STYLE: &str = include_str!("html/viewer.css");
const VIEWER: &str = include_str!("html/viewer.js");
/// The drawing script of the replay's game.
fn game_script(body: &Body) -> &'static str {
    with_game!(body.id(), G => <G as ReplayGame>::VIEWER)
}

/// The viewer page of `replay`.
pub fn page(replay: &Replay) -> String {
    // Inside <script>, "</script>" or "<!--" in the data would end it early:
    // JSON may spell '<' as \u003c, so no '<' is left at all.
    let data = serde_json::to_string(replay).expect("plain data serialises").replace('<', "\\u003c");
    let mut page = code(game_script(&replay.body));
    page =
        page.replacen("<title>Replay</title>", &format!("<title>{}</title>", escape(&replay.summary())), 1);
    page = page.replacen("/*SEED*/", &replay.seed.to_string(), 1);
    page.replacen("/*DATA*/", &data, 1)
}

/// The page with its style and scripts for the game drawn by `game`, not
/// yet its replay.
fn code(game: &str) -> String {
    PAGE.replacen("/*CSS*/", STYLE, 1).replacen("/*GAME*/", game, 1).replacen("/*VIEWER*/", VIEWER, 1)
}

/// The viewer of every game without a replay: what a Content-Security-Policy
/// that lets any viewer run hashes (its inline code is the same for every
/// replay of a game).
pub fn every_viewers_code() -> Vec<String> {
    GameId::ALL.into_iter().map(|game| code(with_game!(game, G => <G as ReplayGame>::VIEWER))).collect()
}

/// The shared style sheet (the tournament index uses it too).
pub fn style() -> &'static str {
    STYLE
}

/// `text` safe inside HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
