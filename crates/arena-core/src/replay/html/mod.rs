//! The HTML viewer: one self-contained file (styles, script and the replay
//! inline; nothing fetched) that draws the game turn by turn. The page and
//! its controls are shared (html/viewer.*); each game adds one script that
//! draws its board (`games/<game>/viewer.js`, its `ReplayGame::VIEWER`); `games::replays::
//! every_viewers_code` is every game's.

use serde::Serialize;

use super::{Replay, ReplayBody};

const PAGE: &str = include_str!("viewer.html");
const STYLE: &str = include_str!("viewer.css");
const VIEWER: &str = include_str!("viewer.js");
/// The charts along the game (think time, advantage): one file, every page's.
const CHARTS: &str = include_str!("charts.js");
/// The players' notes beside the turn shown (a script and style of their
/// own: `viewer.js` calls it).
const NOTES: &str = include_str!("notes.js");
const NOTES_STYLE: &str = include_str!("notes.css");
/// The viewer page of `replay`.
pub fn page<B: ReplayBody + Serialize>(replay: &Replay<B>) -> String {
    page_with(replay, true)
}

/// What a viewer shows in place of a seed kept secret.
pub const HIDDEN_SEED: &str = "kept by the server";

/// The viewer page of `replay`, showing its seed or not (`show_seed`: a
/// server's grading games share their seeds, which must stay its own).
pub fn page_with<B: ReplayBody + Serialize>(replay: &Replay<B>, show_seed: bool) -> String {
    page_beside(replay, show_seed, None)
}

/// The viewer page of `replay` with `analysis` beside it (`arena analyse
/// --html`): the viewer then draws its advantage chart and marks.
pub fn page_beside<B: ReplayBody + Serialize>(
    replay: &Replay<B>,
    show_seed: bool,
    analysis: Option<serde_json::Value>,
) -> String {
    let mut data = serde_json::to_value(replay).expect("plain data serialises");
    if let Some(analysis) = analysis {
        data["analysis"] = analysis;
    }
    let seed = match show_seed {
        true => replay.seed.to_string(),
        false => {
            data["seed"] = serde_json::Value::Null;
            HIDDEN_SEED.to_string()
        }
    };
    // Inside <script>, "</script>" or "<!--" in the data would end it early:
    // JSON may spell '<' as \u003c, so no '<' is left at all.
    let data = data.to_string().replace('<', "\\u003c");
    let title = format!("<title>{}</title>", escape(&replay.summary()));
    fill(
        &code(replay.body.viewer()),
        &[("<title>Replay</title>", &title), ("/*SEED*/", &seed), ("/*LIVE*/", ""), ("/*DATA*/", &data)],
    )
}

/// The viewer page of a live game, with `games`' drawing scripts (every
/// game's: which one plays is known at its feed's start): it draws what
/// the feed at `feed` sends (`replay::live`), and, if it `follows` a run,
/// each game after the one before.
pub fn live_page(games: &str, feed: &str, follows: bool) -> String {
    let live = format!(" data-live=\"{}\"{}", escape(feed), if follows { " data-follow=\"1\"" } else { "" });
    fill(
        &code(games),
        &[
            ("<title>Replay</title>", "<title>Live game</title>"),
            ("/*SEED*/", ""),
            ("/*LIVE*/", &live),
            ("/*DATA*/", "null"),
        ],
    )
}

/// `template` with the first of each placeholder replaced by its value, in
/// one pass over the template: a value that holds a placeholder's text (a
/// player named `/*DATA*/`) is never filled in again.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    let mut left: Vec<&(&str, &str)> = values.iter().collect();
    while let Some((at, i)) =
        left.iter().enumerate().filter_map(|(i, (holder, _))| Some((rest.find(holder)?, i))).min()
    {
        let (holder, value) = left.remove(i);
        out.push_str(&rest[..at]);
        out.push_str(value);
        rest = &rest[at + holder.len()..];
    }
    out.push_str(rest);
    out
}

/// The page with its style and scripts for the game drawn by `game`, not
/// yet its replay.
pub fn code(game: &str) -> String {
    PAGE.replacen("/*CSS*/", &format!("{STYLE}{NOTES_STYLE}"), 1)
        .replacen("/*GAME*/", game, 1)
        .replacen("/*CHARTS*/", CHARTS, 1)
        .replacen("/*VIEWER*/", &format!("{NOTES}\n{VIEWER}"), 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_placeholder_is_filled_once_and_never_inside_a_value() {
        let template = "<title>T</title> [A] [B] [A]";
        let filled =
            fill(template, &[("[B]", "b"), ("<title>T</title>", "<title>[B][A]</title>"), ("[A]", "a")]);
        assert_eq!(filled, "<title>[B][A]</title> a b [A]");
        assert_eq!(fill("no holders", &[("[A]", "a")]), "no holders");
    }
}
