//! A replay's HTML viewer with its analysis beside it (`arena analyse
//! --html`): the viewer draws the advantage chart and the marks from it.

use serde::Serialize;

use super::GameAnalysis;
use crate::replay::{html, Replay, ReplayBody};

/// The viewer page of `replay`, with `analysis`.
pub fn page<B: ReplayBody + Serialize>(replay: &Replay<B>, analysis: &GameAnalysis) -> String {
    html::page_beside(replay, true, Some(serde_json::to_value(analysis).expect("plain data serialises")))
}
