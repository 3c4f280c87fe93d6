//! What a tune leaves beside its journal: the trajectory as CSV (a row
//! per iteration: theta after it, the values played, the games) and an
//! SVG plot of each parameter over the iterations, a panel each, drawn by
//! hand (a polyline per panel needs no plotting crate).

use std::fmt::Write as _;

use super::{Iteration, Outcome, TuneConfig};
use crate::report::table::csv_field;

/// The CSV: `iteration`, each parameter's theta, each one's plus and
/// minus values, then the games (theta+'s; against an opponent theta+'s
/// and theta-'s) and the result the update took.
pub fn csv(config: &TuneConfig, trajectory: &[Iteration]) -> String {
    let mut header = vec!["iteration".to_string()];
    header.extend(config.params.iter().map(|p| csv_field(&p.name)));
    header.extend(config.params.iter().map(|p| csv_field(&format!("{}+", p.name))));
    header.extend(config.params.iter().map(|p| csv_field(&format!("{}-", p.name))));
    header.extend(["wins+", "draws+", "losses+", "wins-", "draws-", "losses-", "result"].map(String::from));
    let mut text = header.join(",") + "\n";
    let start = config.start();
    let _ = writeln!(
        text,
        "0,{}{}",
        start.iter().map(f64::to_string).collect::<Vec<_>>().join(","),
        ",".repeat(2 * config.params.len() + 7)
    );
    for it in trajectory {
        let p = &it.perturbation;
        let mut row = vec![p.k.to_string()];
        row.extend(it.theta.iter().map(f64::to_string));
        row.extend(p.plus.iter().map(f64::to_string));
        row.extend(p.minus.iter().map(f64::to_string));
        let (plus, minus) = match it.outcome {
            Outcome::Duel(w) => (w, None),
            Outcome::Against { plus, minus } => (plus, Some(minus)),
        };
        row.extend([plus.wins, plus.draws, plus.losses].map(|n| n.to_string()));
        row.extend(
            [minus.map(|m| m.wins), minus.map(|m| m.draws), minus.map(|m| m.losses)]
                .map(|n| n.map_or(String::new(), |n| n.to_string())),
        );
        row.push(it.outcome.result().to_string());
        text.push_str(&row.join(","));
        text.push('\n');
    }
    text
}

const WIDTH: f64 = 720.0;
const PANEL: f64 = 160.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 30.0;

/// The plot: a panel per parameter, theta over the iterations (the start
/// at 0), its range as the panel's height, the start dashed.
pub fn svg(config: &TuneConfig, trajectory: &[Iteration]) -> String {
    let n = config.params.len();
    let height = n as f64 * (PANEL + TOP + BOTTOM);
    let last = f64::from(config.schedule.iterations.max(1));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let plot_width = WIDTH - LEFT - RIGHT;
    for (i, param) in config.params.iter().enumerate() {
        let top = i as f64 * (PANEL + TOP + BOTTOM) + TOP;
        let span = if param.max > param.min { param.max - param.min } else { 1.0 };
        let x = |k: f64| LEFT + plot_width * k / last;
        let y = |v: f64| top + PANEL * (1.0 - (v - param.min) / span);
        let now = trajectory.last().map_or(param.start, |it| it.theta[i]);
        let _ = writeln!(
            out,
            "<text x=\"{LEFT}\" y=\"{:.1}\" font-weight=\"bold\">{} ({}): start {}, now {}</text>",
            top - 8.0,
            escape(&param.name),
            param.kind.name(),
            param.shown(param.start),
            param.shown(now)
        );
        let _ = writeln!(
            out,
            "<rect x=\"{LEFT}\" y=\"{top:.1}\" width=\"{plot_width}\" height=\"{PANEL}\" fill=\"none\" stroke=\"#999\"/>"
        );
        for (value, anchor) in [(param.max, top + 4.0), (param.min, top + PANEL)] {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{anchor:.1}\" text-anchor=\"end\">{}</text>",
                LEFT - 6.0,
                param.shown(value)
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            top + PANEL + 18.0,
            config.schedule.iterations
        );
        let _ = writeln!(out, "<text x=\"{LEFT}\" y=\"{:.1}\">0 (iterations)</text>", top + PANEL + 18.0);
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{s:.2}\" x2=\"{:.1}\" y2=\"{s:.2}\" stroke=\"#bbb\" stroke-dasharray=\"4 4\"/>",
            WIDTH - RIGHT,
            s = y(param.start)
        );
        let mut points = format!("{:.2},{:.2}", x(0.0), y(param.start));
        for it in trajectory {
            let _ = write!(points, " {:.2},{:.2}", x(f64::from(it.perturbation.k)), y(it.theta[i]));
        }
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{points}\"/>"
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::tune::{param, step, Schedule, Wdl};

    #[test]
    fn the_csv_and_the_plot_follow_the_trajectory() {
        let config = TuneConfig {
            params: param::parse_all(&[
                "w, float, 1, 0, 2, 0.1, 0.01".into(),
                "n, int, 3, 0, 6, 1, 0.01".into(),
            ])
            .unwrap(),
            schedule: Schedule::new(2),
            pairs: 1,
            seed: 1,
            games_print: String::new(),
        };
        let mut theta = config.start();
        let mut trajectory = Vec::new();
        for k in 1..=2 {
            let p = step::perturb(&config.params, &config.schedule, &theta, 1, k);
            let outcome = Outcome::Duel(Wdl { wins: 2, draws: 0, losses: 0 });
            theta = step::update(&config.params, &theta, &p, outcome.result());
            trajectory.push(Iteration { perturbation: p, outcome, theta: theta.clone() });
        }
        let text = csv(&config, &trajectory);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "iteration,w,n,w+,n+,w-,n-,wins+,draws+,losses+,wins-,draws-,losses-,result");
        assert_eq!(rows.len(), 4);
        assert!(rows[1].starts_with("0,1,3,"));
        assert_eq!(rows[1].split(',').count(), 14);
        let last: Vec<&str> = rows[3].split(',').collect();
        assert_eq!((last[0], last[1].parse::<f64>().unwrap()), ("2", theta[0]));
        assert_eq!(&last[7..], &["2", "0", "0", "", "", "", "2"]);
        let plot = svg(&config, &trajectory);
        assert_eq!(plot.matches("<polyline").count(), 2);
        // The start and one point per iteration.
        let points = plot.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
        assert_eq!(points.split(' ').count(), 3);
        assert!(plot.contains(&format!("now {}", config.params[0].shown(theta[0]))));
    }
}
