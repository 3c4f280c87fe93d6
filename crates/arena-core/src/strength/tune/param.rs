//! A tuned parameter as OpenBench writes it, one a line:
//! `NAME, int|float, START, MIN, MAX, C_END, R_END`. Parsing says what is
//! wrong with a line in one sentence that names the parameter and the fix.

use std::fmt;

pub use player_api::params::Kind;

/// "an int" or "a float", for sentences.
fn with_article(kind: Kind) -> &'static str {
    match kind {
        Kind::Int => "an int",
        Kind::Float => "a float",
    }
}

/// A kind in a journal: its name (`int`, `float`), as the player API spells it.
mod kind_by_name {
    use super::Kind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let name = String::deserialize(d)?;
        Kind::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown parameter type '{name}'")))
    }
}

/// One tuned parameter.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TunedParam {
    pub name: String,
    #[serde(with = "kind_by_name")]
    pub kind: Kind,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last iteration (`c_k` for k = N).
    pub c_end: f64,
    /// The learning rate at the last iteration (`a_k / c_k^2` for k = N).
    pub r_end: f64,
}

/// The form, for error messages.
pub const FORM: &str = "NAME, int|float, START, MIN, MAX, C_END, R_END";

impl TunedParam {
    /// Parses one line of OpenBench's form.
    pub fn parse(line: &str) -> Result<TunedParam, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let shown = line.trim();
        if fields.len() != 7 {
            return Err(format!(
                "--param '{shown}': a tuned parameter is `{FORM}` (7 fields, found {}): write e.g. 'mobility, float, 1.0, 0.0, 4.0, 0.25, 0.002'",
                fields.len()
            ));
        }
        let name = fields[0];
        if name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
        {
            return Err(format!(
                "--param '{shown}': the name '{name}' is not a parameter name (letters, digits, '_', '.', '-'): write the name `arena check PLAYER --params` lists"
            ));
        }
        let Some(kind) = Kind::parse(fields[1]) else {
            return Err(format!(
                "parameter {name}: type '{}' is neither int nor float: write int or float",
                fields[1]
            ));
        };
        let number = |index: usize, what: &str| -> Result<f64, String> {
            let text = fields[index];
            match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(format!(
                    "parameter {name}: {what} '{text}' is not a number: write a number such as 3 or 0.5"
                )),
            }
        };
        let (start, min, max) = (number(2, "START")?, number(3, "MIN")?, number(4, "MAX")?);
        let (c_end, r_end) = (number(5, "C_END")?, number(6, "R_END")?);
        if kind == Kind::Int {
            for (what, x) in [("START", start), ("MIN", min), ("MAX", max)] {
                if x.fract() != 0.0 {
                    return Err(format!(
                        "parameter {name}: {what} {x} is not a whole number, and {name} is an int: write a whole number, or make it a float"
                    ));
                }
            }
        }
        if min > max {
            return Err(format!("parameter {name}: MIN {min} is above MAX {max}: swap them"));
        }
        if !(min..=max).contains(&start) {
            return Err(format!(
                "parameter {name}: START {start} is outside its range [{min}, {max}]: start within the range, or widen it"
            ));
        }
        if c_end <= 0.0 {
            return Err(format!(
                "parameter {name}: C_END {c_end} perturbs nothing: give the step tried at the end, above 0 (e.g. a twentieth of the range)"
            ));
        }
        if r_end <= 0.0 {
            return Err(format!(
                "parameter {name}: R_END {r_end} learns nothing: give a learning rate above 0 (e.g. 0.002)"
            ));
        }
        Ok(TunedParam { name: name.to_string(), kind, start, min, max, c_end, r_end })
    }

    /// `value` as the player is given it: a whole number for an int.
    pub fn shown(&self, value: f64) -> String {
        match self.kind {
            Kind::Int => format!("{}", value.round() as i64),
            Kind::Float => format!("{}", round_for_people(value)),
        }
    }

    /// `value` as the player is given it, in full: a whole number for an
    /// int, every digit of a float (the shortest text that reads back the same).
    pub fn exact(&self, value: f64) -> String {
        match self.kind {
            Kind::Int => format!("{}", value.round() as i64),
            Kind::Float => format!("{value}"),
        }
    }

    /// `value` clipped to the range.
    pub fn clip(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }
}

/// Six significant digits: enough for a weight, short enough for a flag.
fn round_for_people(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = 6 - 1 - x.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits.clamp(-300, 300));
    (x * scale).round() / scale
}

impl fmt::Display for TunedParam {
    /// The line again, as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}, {}, {}, {}, {}, {}",
            self.name,
            self.kind.name(),
            self.start,
            self.min,
            self.max,
            self.c_end,
            self.r_end
        )
    }
}

/// Parses every line, refusing a parameter named twice.
pub fn parse_all(lines: &[String]) -> Result<Vec<TunedParam>, String> {
    let mut params: Vec<TunedParam> = Vec::with_capacity(lines.len());
    for line in lines {
        let param = TunedParam::parse(line)?;
        if params.iter().any(|p| p.name == param.name) {
            return Err(format!("parameter {}: given twice: keep one --param line for it", param.name));
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err(format!("nothing to tune: give at least one --param '{FORM}'"));
    }
    Ok(params)
}

/// What a player says it accepts, as far as a tune needs to know: a name,
/// and its range if it declares one.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub name: String,
    pub kind: Kind,
    pub range: (f64, f64),
}

impl From<&player_api::params::Param> for Declared {
    fn from(p: &player_api::params::Param) -> Declared {
        Declared { name: p.name.clone(), kind: p.kind, range: (p.min, p.max) }
    }
}

/// Refuses a tuned parameter the player does not declare, or a range
/// wider than the one it declares; `player` is how the player was named.
pub fn check_declared(params: &[TunedParam], declared: &[Declared], player: &str) -> Result<(), String> {
    for param in params {
        let Some(known) = declared.iter().find(|d| d.name == param.name) else {
            let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
            let list = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            return Err(format!(
                "parameter {}: {player} declares no parameter of that name (it declares: {list}): use a name `arena check {player} --params` lists",
                param.name
            ));
        };
        if known.kind != param.kind {
            return Err(format!(
                "parameter {}: {player} declares it {}, not {}: write {} in its line",
                param.name,
                with_article(known.kind),
                with_article(param.kind),
                known.kind.name()
            ));
        }
        let (low, high) = known.range;
        if param.min < low || param.max > high {
            return Err(format!(
                "parameter {}: the range [{}, {}] goes beyond the [{low}, {high}] {player} accepts: narrow MIN and MAX to it",
                param.name, param.min, param.max
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> String {
        TunedParam::parse(line).unwrap_err()
    }

    #[test]
    fn a_line_of_openbench_form_parses() {
        let p = TunedParam::parse(" mobility, float, 1.5, 0, 4, 0.25, 0.002 ").unwrap();
        assert_eq!(
            p,
            TunedParam {
                name: "mobility".into(),
                kind: Kind::Float,
                start: 1.5,
                min: 0.0,
                max: 4.0,
                c_end: 0.25,
                r_end: 0.002
            }
        );
        assert_eq!(TunedParam::parse(&p.to_string()).unwrap(), p, "Display gives the line back");
        let depth = TunedParam::parse("depth,int,3,1,6,1,0.002").unwrap();
        assert_eq!((depth.kind, depth.shown(3.4)), (Kind::Int, "3".to_string()));
    }

    #[test]
    fn each_bad_line_is_one_sentence_naming_the_parameter_and_the_fix() {
        let e = error("mobility, float, 1.5");
        assert!(
            e.contains("'mobility, float, 1.5'") && e.contains("7 fields, found 3") && e.contains(FORM),
            "{e}"
        );
        let e = error("mobility, double, 1, 0, 4, 0.2, 0.002");
        assert!(
            e.starts_with("parameter mobility: type 'double'") && e.contains("write int or float"),
            "{e}"
        );
        let e = error("mobility, float, one, 0, 4, 0.2, 0.002");
        assert!(e.starts_with("parameter mobility: START 'one' is not a number"), "{e}");
        let e = error("mobility, float, 1, 4, 0, 0.2, 0.002");
        assert_eq!(e, "parameter mobility: MIN 4 is above MAX 0: swap them");
        let e = error("mobility, float, 5, 0, 4, 0.2, 0.002");
        assert!(
            e.starts_with("parameter mobility: START 5 is outside its range [0, 4]") && e.contains("widen"),
            "{e}"
        );
        let e = error("depth, int, 2.5, 0, 4, 1, 0.002");
        assert!(e.starts_with("parameter depth: START 2.5 is not a whole number"), "{e}");
        let e = error("mobility, float, 1, 0, 4, 0, 0.002");
        assert!(e.starts_with("parameter mobility: C_END 0"), "{e}");
        let e = error("mobility, float, 1, 0, 4, 0.2, -1");
        assert!(e.starts_with("parameter mobility: R_END -1"), "{e}");
        let e = error("two words, float, 1, 0, 4, 0.2, 0.1");
        assert!(e.contains("'two words' is not a parameter name"), "{e}");
        for e in [
            error("a, float, 1"),
            error("a, float, 5, 0, 4, 0.2, 0.002"),
            parse_all(&["a, int, 1, 0, 4, 1, 0.1".into(), "a, int, 1, 0, 4, 1, 0.1".into()]).unwrap_err(),
            parse_all(&[]).unwrap_err(),
        ] {
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn a_parameter_the_player_does_not_declare_is_refused_with_the_ones_it_does() {
        let params = parse_all(&["mobilty, float, 1, 0, 4, 0.2, 0.002".into()]).unwrap();
        let declared = [
            Declared { name: "mobility".into(), kind: Kind::Float, range: (0.0, 10.0) },
            Declared { name: "lookahead".into(), kind: Kind::Float, range: (0.0, 10.0) },
        ];
        let e = check_declared(&params, &declared, "hard").unwrap_err();
        assert_eq!(
            e,
            "parameter mobilty: hard declares no parameter of that name (it declares: mobility, lookahead): use a name `arena check hard --params` lists"
        );
        let ok = parse_all(&["mobility, float, 1, 0, 4, 0.2, 0.002".into()]).unwrap();
        assert!(check_declared(&ok, &declared, "hard").is_ok());
        let wide = parse_all(&["mobility, float, 1, -1, 4, 0.2, 0.002".into()]).unwrap();
        let e = check_declared(&wide, &declared, "hard").unwrap_err();
        assert!(e.contains("goes beyond the [0, 10] hard accepts"), "{e}");
        let int = parse_all(&["mobility, int, 1, 0, 4, 1, 0.002".into()]).unwrap();
        let e = check_declared(&int, &declared, "hard").unwrap_err();
        assert_eq!(e, "parameter mobility: hard declares it a float, not an int: write float in its line");
    }

    #[test]
    fn values_are_shown_as_the_player_takes_them() {
        let p = TunedParam::parse("w, float, 1, 0, 4, 0.2, 0.002").unwrap();
        assert_eq!(p.shown(1.234_567_891), "1.23457");
        assert_eq!(p.clip(7.0), 4.0);
    }
}
