//! What time buys (`arena bench PLAYER --tc-sweep 0.05s,0.1s,...`): a
//! player's score against each reference level at each of its own time
//! controls (the levels keep theirs), the control at which it matches each
//! level, and the same as a page with a plot.

use std::fmt::Write as _;

use crate::{
    play::time_control::TimeControl,
    play::two_player::TwoPlayerGame,
    players::{Hosting, Level, Player},
    stats::{score_interval, Wdl},
    strength::bench::{self, LevelRun},
};

/// The player's score against each level at one of its controls.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    pub control: TimeControl,
    /// (level, score in 0..=1, 95% interval), in `Level::ALL`'s order.
    pub scores: Vec<(Level, f64, [f64; 2])>,
}

/// Plays `games` against each level at each of `controls` (the player's
/// own; the levels play under `levels`, or the settings' if None).
pub fn run<G: TwoPlayerGame>(
    player: &Player,
    controls: &[TimeControl],
    levels: Option<TimeControl>,
    games: u32,
    seed: u64,
    settings: G::Settings,
    hosting: &Hosting,
) -> Vec<SweepPoint> {
    controls
        .iter()
        .map(|&control| {
            let runs = bench::run::<G>(
                player,
                games,
                seed,
                settings,
                hosting,
                [Some(control), levels],
                Default::default(),
            );
            SweepPoint { control, scores: runs.iter().map(score).collect() }
        })
        .collect()
}

fn score<G: TwoPlayerGame>(run: &LevelRun<G>) -> (Level, f64, [f64; 2]) {
    let t = &run.result.tallies[0];
    let interval = score_interval(Wdl::new(t.wins, t.draws, t.losses));
    (run.level, interval.score, [interval.lower, interval.upper])
}

/// The time at which the player's score against `level` reaches one half,
/// read off the sweep (in order of time, interpolated on a log scale):
/// None if it never does within it; the first control if it already does.
pub fn matching_time(points: &[SweepPoint], level: Level) -> Option<f64> {
    let at = |p: &SweepPoint| {
        let score = p.scores.iter().find(|(l, _, _)| *l == level).map_or(0.0, |s| s.1);
        (p.control.turn_ceiling().as_secs_f64(), score)
    };
    let mut sorted: Vec<(f64, f64)> = points.iter().map(at).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let first = *sorted.first()?;
    if first.1 >= 0.5 {
        return Some(first.0);
    }
    sorted.windows(2).find(|w| w[0].1 < 0.5 && w[1].1 >= 0.5).map(|w| {
        let (lo, hi) = (w[0].0.ln(), w[1].0.ln());
        let share = (0.5 - w[0].1) / (w[1].1 - w[0].1);
        (lo + share * (hi - lo)).exp()
    })
}

/// The table: a row per control, a column per level, and where the player
/// matches each level.
pub fn report(
    name: &str,
    points: &[SweepPoint],
    games: u32,
    levels_control: TimeControl,
    seed: u64,
) -> String {
    let mut text = format!(
        "{name}: score against each level ({games} games each, the levels at {levels_control}), seed {seed}\n\n"
    );
    let _ = write!(text, "{:>12}", "time control");
    for level in Level::ALL {
        let _ = write!(text, "  {:>15}", level.name());
    }
    text.push('\n');
    for point in points {
        let _ = write!(text, "{:>12}", point.control.to_string());
        for (_, score, [lower, upper]) in &point.scores {
            let _ = write!(text, "  {:>5.0}% ({:>2.0}-{:>3.0})", score * 100.0, lower * 100.0, upper * 100.0);
        }
        text.push('\n');
    }
    text.push('\n');
    for level in Level::ALL {
        let _ = match matching_time(points, level) {
            Some(seconds) => {
                writeln!(text, "matches {} (50%) at about {}", level.name(), seconds_text(seconds))
            }
            None => writeln!(text, "does not match {} within the sweep", level.name()),
        };
    }
    text
}

fn seconds_text(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.0} us", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.0} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}

/// A page with the table and a plot (score against time, log scale, one
/// line per level). The player's name is escaped: it is the player's own.
pub fn html(name: &str, points: &[SweepPoint], table: &str) -> String {
    const W: f64 = 640.0;
    const H: f64 = 320.0;
    const PAD: f64 = 48.0;
    let times: Vec<f64> = points.iter().map(|p| p.control.turn_ceiling().as_secs_f64()).collect();
    let (lo, hi) = times.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    let span = (hi.ln() - lo.ln()).max(1e-9);
    let x = |t: f64| PAD + (t.ln() - lo.ln()) / span * (W - 2.0 * PAD);
    let y = |score: f64| H - PAD - score * (H - 2.0 * PAD);
    let colors = ["#2a9d8f", "#e9c46a", "#f4a261", "#e76f51"];
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" style="max-width:100%;height:auto" role="img" aria-label="score against time per turn">
<line x1="{PAD}" y1="{y0}" x2="{xr}" y2="{y0}" stroke="#888"/><line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{y0}" stroke="#888"/>
<line x1="{PAD}" y1="{yh}" x2="{xr}" y2="{yh}" stroke="#ccc" stroke-dasharray="4"/>
<text x="{xm}" y="{H}" font-size="11" text-anchor="middle">the player's time control (log scale)</text>
<text x="4" y="{yt}" font-size="11">100%</text><text x="10" y="{yh5}" font-size="11">50%</text><text x="18" y="{y0}" font-size="11">0%</text>
"##,
        y0 = y(0.0),
        xr = W - PAD,
        yh = y(0.5),
        yt = y(1.0) + 4.0,
        yh5 = y(0.5) + 4.0,
        xm = W / 2.0,
    );
    for (&t, point) in times.iter().zip(points) {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
            x(t),
            H - PAD + 16.0,
            point.control
        );
    }
    for (i, level) in Level::ALL.into_iter().enumerate() {
        let color = colors[i % colors.len()];
        let line: Vec<String> = times
            .iter()
            .zip(points)
            .filter_map(|(&t, p)| {
                p.scores.iter().find(|s| s.0 == level).map(|s| format!("{:.1},{:.1}", x(t), y(s.1)))
            })
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            line.join(" ")
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" fill="{color}">{}</text>"#,
            W - PAD + 4.0,
            PAD + 14.0 * i as f64,
            level.name()
        );
    }
    svg.push_str("</svg>");
    let name = crate::replay::html::escape(name);
    let table = crate::replay::html::escape(table);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}: what time buys</title>\
         <meta name=\"viewport\" content=\"width=device-width\"></head>\
         <body style=\"font-family:sans-serif;max-width:720px;margin:2em auto\">\n<h1>{name}: what time buys</h1>\n\
         <p>Score against each reference level at each of the player's time controls.</p>\n{svg}\n<pre>{table}</pre>\n</body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(control: &str, scores: [f64; 4]) -> SweepPoint {
        SweepPoint {
            control: control.parse().unwrap(),
            scores: Level::ALL.into_iter().zip(scores).map(|(l, s)| (l, s, [s, s])).collect(),
        }
    }

    #[test]
    fn the_matching_time_is_read_off_the_sweep_on_a_log_scale() {
        let points = [point("0.1s", [0.6, 0.2, 0.0, 0.0]), point("1s", [0.9, 0.8, 0.3, 0.0])];
        assert_eq!(matching_time(&points, Level::Easy), Some(0.1));
        // Halfway from 20% to 80%: halfway between 0.1 s and 1 s on a log scale.
        let medium = matching_time(&points, Level::Medium).unwrap();
        assert!((medium - 0.1f64.sqrt() * 1.0f64.sqrt()).abs() < 1e-9, "{medium}");
        assert_eq!(matching_time(&points, Level::Hard), None);
    }

    #[test]
    fn the_page_escapes_the_players_name() {
        let points = [point("0.1s", [0.5; 4]), point("1s", [0.6; 4])];
        let page = html("<script>x</script>", &points, "t");
        assert!(!page.contains("<script>x"), "{page}");
        assert!(page.contains("<svg") && page.contains("polyline"));
    }
}
