//! The HTML viewer: one self-contained file (styles, script and the replay
//! inline; nothing fetched) that draws the game turn by turn. The page and
//! its controls are shared (html/viewer.*); each game adds one script that
//! draws its board (html/<game>.js), keyed by the replay's `game` field.

use super::{Body, Replay};

const PAGE: &str = include_str!("html/viewer.html");
const STYLE: &str = include_str!("html/viewer.css");
const VIEWER: &str = include_str!("html/viewer.js");
const TRAP: &str = include_str!("../games/trap/viewer.js");
const INTUITIVE: &str = include_str!("../games/intuitive/viewer.js");
const HEXAPAWN: &str = include_str!("../games/hexapawn/viewer.js");
const WUMPUS: &str = include_str!("../games/wumpus/viewer.js");
const FOREST: &str = include_str!("../games/magic_forest/viewer.js");

/// The drawing script of the replay's game.
fn game_script(body: &Body) -> &'static str {
    match body {
        Body::Trap(_) => TRAP,
        Body::Intuitive(_) => INTUITIVE,
        Body::Hexapawn(_) => HEXAPAWN,
        Body::Wumpus(_) => WUMPUS,
        Body::Forest(_) => FOREST,
    }
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
    [TRAP, INTUITIVE, HEXAPAWN, WUMPUS, FOREST].into_iter().map(code).collect()
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
