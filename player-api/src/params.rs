//! What a player is given when it is made: its parameters (numbers the
//! arena sets from outside, `--param NAME=VALUE`: a search's weights, for
//! tuning) and its memory (bytes it handed back at the end of its last
//! match, with `--memory DIR`).
//!
//! A player declares the parameters it accepts ([`Param`]: a name, int or
//! float, a default and a range); the arena checks every value given
//! against them, so a player reads its own with [`Setup::get_f64`] or
//! [`Setup::get_i64`] and needs no checks of its own. Every declared
//! parameter is given: at its default unless set.
//!
//! ```
//! use player_api::params::{Param, Setup, Value};
//!
//! let declared = [Param::float("mobility", 1.0, 0.0, 10.0), Param::int("depth", 3, 1, 8)];
//! let setup = Setup::new(vec![("depth".into(), Value::Int(5))], None).with_defaults(&declared);
//! assert_eq!(setup.get_f64("mobility"), 1.0);
//! assert_eq!(setup.get_i64("depth"), 5);
//! ```

/// A parameter's type: a whole number or a real one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Int,
    Float,
}

impl Kind {
    /// As `arena check --params` and the protocol spell it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Float => "float",
        }
    }

    /// The kind named `name` (`int` or `float`).
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "int" => Some(Kind::Int),
            "float" => Some(Kind::Float),
            _ => None,
        }
    }
}

/// A parameter a player accepts: its name, type, default and range (both
/// ends included). An int's default and ends are whole numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: Kind,
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

impl Param {
    /// A real-valued parameter.
    pub fn float(name: &str, default: f64, min: f64, max: f64) -> Param {
        Param { name: name.to_string(), kind: Kind::Float, default, min, max }
    }

    /// A whole-number parameter.
    pub fn int(name: &str, default: i64, min: i64, max: i64) -> Param {
        Param {
            name: name.to_string(),
            kind: Kind::Int,
            default: default as f64,
            min: min as f64,
            max: max as f64,
        }
    }

    /// Its default as a value of its type.
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::Int => Value::Int(self.default as i64),
            Kind::Float => Value::Float(self.default),
        }
    }

    /// `text` read as a value of this parameter, or why it is not one (a
    /// sentence naming the parameter and what to give instead).
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let (name, range) = (&self.name, self.range());
        let value = match self.kind {
            Kind::Int => match text.trim().parse::<i64>() {
                Ok(n) => Value::Int(n),
                Err(_) => {
                    return Err(format!(
                        "parameter '{name}' is an int, not '{text}': give a whole number in {range}"
                    ))
                }
            },
            Kind::Float => match text.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Value::Float(x),
                _ => {
                    return Err(format!(
                        "parameter '{name}' is a float, not '{text}': give a number in {range}"
                    ))
                }
            },
        };
        self.check(value)
    }

    /// `value` if it is of this parameter's type and in its range.
    pub fn check(&self, value: Value) -> Result<Value, String> {
        let (name, range) = (&self.name, self.range());
        let value = match (self.kind, value) {
            (Kind::Float, Value::Int(n)) => Value::Float(n as f64),
            (Kind::Int, Value::Float(x)) if x.fract() != 0.0 || !x.is_finite() => {
                return Err(format!("parameter '{name}' is an int, not {x}: give a whole number in {range}"))
            }
            (Kind::Int, Value::Float(x)) => Value::Int(x as i64),
            (_, value) => value,
        };
        let x = value.as_f64();
        if !(self.min..=self.max).contains(&x) {
            return Err(format!(
                "parameter '{name}' = {value} is outside its range {range}: give a value in it"
            ));
        }
        Ok(value)
    }

    /// Its range as people read it: `0..10` (both ends included).
    pub fn range(&self) -> String {
        format!("{}..{}", self.min, self.max)
    }
}

/// Why `declared` is not a list of parameters the arena can set, if it is
/// not: one sentence naming the first bad parameter and the fix. A name is
/// a plain identifier (`--param NAME=VALUE` must be able to name it, a
/// table to show it), given once; the numbers are finite, and the default
/// lies in the range. The arena checks every player's declaration as it
/// loads it, whatever the player is.
pub fn check_declared(declared: &[Param]) -> Result<(), String> {
    for (i, param) in declared.iter().enumerate() {
        // Shown escaped: a name may hold what a terminal would obey.
        let name = param.name.escape_debug();
        if param.name.is_empty() {
            return Err(format!("parameter {} has an empty name: name it", i + 1));
        }
        if !is_identifier(&param.name) {
            return Err(format!(
                "parameter '{name}' is not a plain name: use letters, digits and _, not starting with a digit"
            ));
        }
        if declared[..i].iter().any(|p| p.name == param.name) {
            return Err(format!("parameter '{name}' is declared twice: declare each parameter once"));
        }
        for (what, x) in [("default", param.default), ("min", param.min), ("max", param.max)] {
            if !x.is_finite() {
                return Err(format!("parameter '{name}' has {what} {x}: declare finite numbers"));
            }
        }
        if param.min > param.max {
            return Err(format!(
                "parameter '{name}' has min {} > max {}: declare min <= max",
                param.min, param.max
            ));
        }
        if !(param.min..=param.max).contains(&param.default) {
            return Err(format!(
                "parameter '{name}' has default {} outside its range {}: declare a default in it",
                param.default,
                param.range()
            ));
        }
    }
    Ok(())
}

/// ASCII letters, digits and `_`, not starting with a digit: a name the
/// arena's command line and tables can carry as it is (a parameter's, a
/// variable's, a Python class's).
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    /// The value as a real number (an int converted).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(n) => n as f64,
            Value::Float(x) => x,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Float(x) => write!(f, "{x}"),
        }
    }
}

/// What a player is given when it is made: its parameters' values and its
/// memory (none on a first match, or without `--memory`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    params: Vec<(String, Value)>,
    memory: Option<Vec<u8>>,
}

impl Setup {
    /// A setup of these values (checked by the arena) and this memory.
    pub fn new(params: Vec<(String, Value)>, memory: Option<Vec<u8>>) -> Setup {
        Setup { params, memory }
    }

    /// The same, with every parameter of `declared` that has no value given
    /// at its default.
    pub fn with_defaults(mut self, declared: &[Param]) -> Setup {
        for param in declared {
            if self.get(&param.name).is_none() {
                self.params.push((param.name.clone(), param.default_value()));
            }
        }
        self
    }

    /// The same, with `memory` as its memory.
    pub fn with_memory(self, memory: Option<Vec<u8>>) -> Setup {
        Setup { memory, ..self }
    }

    /// The value of parameter `name`, if it was given (or declared).
    pub fn get(&self, name: &str) -> Option<Value> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// Parameter `name` as a real number (an int's converted).
    ///
    /// # Panics
    ///
    /// If the player did not declare it (the arena gives every declared
    /// parameter), with a message saying so: a bug in the player.
    pub fn get_f64(&self, name: &str) -> f64 {
        self.declared(name).as_f64()
    }

    /// Int parameter `name`.
    ///
    /// # Panics
    ///
    /// If the player did not declare it, or declared it a float.
    pub fn get_i64(&self, name: &str) -> i64 {
        match self.declared(name) {
            Value::Int(n) => n,
            Value::Float(x) => {
                panic!("parameter '{name}' is a float ({x}): read it with get_f64, or declare it an int")
            }
        }
    }

    fn declared(&self, name: &str) -> Value {
        self.get(name).unwrap_or_else(|| {
            panic!("parameter '{name}' is not declared: add it to the player's params (export_player!'s `params:`)")
        })
    }

    /// Every parameter's value, in the order given.
    pub fn params(&self) -> &[(String, Value)] {
        &self.params
    }

    /// The memory the player handed back at the end of its last match, if
    /// any (`--memory DIR`).
    pub fn memory(&self) -> Option<&[u8]> {
        self.memory.as_deref()
    }

    /// Takes the memory out (a player that keeps it as it is).
    pub fn take_memory(&mut self) -> Option<Vec<u8>> {
        self.memory.take()
    }

    /// Whether it gives nothing: no parameter, no memory.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty() && self.memory.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_the_declaration_with_one_sentence_each() {
        let depth = Param::int("depth", 3, 1, 8);
        assert_eq!(depth.parse("5"), Ok(Value::Int(5)));
        let err = depth.parse("2.5").unwrap_err();
        assert!(err.contains("'depth' is an int") && err.contains("1..8"), "{err}");
        let err = depth.parse("9").unwrap_err();
        assert!(err.contains("outside its range 1..8"), "{err}");
        let mobility = Param::float("mobility", 1.0, 0.0, 10.0);
        assert_eq!(mobility.parse("2"), Ok(Value::Float(2.0)));
        assert!(mobility.parse("NaN").unwrap_err().contains("is a float"));
        assert!(mobility.parse("-0.5").unwrap_err().contains("outside"));
        assert_eq!(depth.check(Value::Float(4.0)), Ok(Value::Int(4)));
    }

    #[test]
    fn a_bad_declaration_is_one_sentence_naming_the_parameter() {
        let good = [Param::float("mobility", 1.0, 0.0, 10.0), Param::int("_depth2", 3, 1, 8)];
        assert_eq!(check_declared(&good), Ok(()));
        let with = |param: Param| check_declared(&[Param::int("depth", 3, 1, 8), param]).unwrap_err();
        let float =
            |name: &str, default: f64, min: f64, max: f64| with(Param::float(name, default, min, max));
        assert_eq!(float("w", f64::NAN, 0.0, 1.0), "parameter 'w' has default NaN: declare finite numbers");
        assert_eq!(float("w", 0.0, 0.0, f64::INFINITY), "parameter 'w' has max inf: declare finite numbers");
        assert_eq!(
            float("w", 0.0, f64::NEG_INFINITY, 1.0),
            "parameter 'w' has min -inf: declare finite numbers"
        );
        assert_eq!(float("w", 1.0, 2.0, 0.0), "parameter 'w' has min 2 > max 0: declare min <= max");
        assert_eq!(
            float("w", 5.0, 0.0, 1.0),
            "parameter 'w' has default 5 outside its range 0..1: declare a default in it"
        );
        assert_eq!(float("", 0.0, 0.0, 1.0), "parameter 2 has an empty name: name it");
        assert_eq!(
            float("depth", 0.5, 0.0, 1.0),
            "parameter 'depth' is declared twice: declare each parameter once"
        );
        for name in ["a=b", "a b", "2d", "bad-name", "é"] {
            assert!(float(name, 0.0, 0.0, 1.0).contains("is not a plain name: use letters, digits and _"));
        }
        let escaped = float("evil\x1b]0;x\x07\nline", 0.0, 0.0, 1.0);
        assert!(
            escaped.starts_with(r"parameter 'evil\u{1b}]0;x\u{7}\nline' is not a plain name"),
            "{escaped}"
        );
    }

    #[test]
    fn a_setup_gives_every_declared_parameter() {
        let declared = [Param::float("a", 0.5, 0.0, 1.0), Param::int("b", 2, 0, 4)];
        let setup =
            Setup::new(vec![("a".into(), Value::Float(0.25))], Some(vec![1, 2])).with_defaults(&declared);
        assert_eq!((setup.get_f64("a"), setup.get_i64("b"), setup.get_f64("b")), (0.25, 2, 2.0));
        assert_eq!(setup.memory(), Some(&[1u8, 2][..]));
        let missing = std::panic::catch_unwind(|| setup.get_f64("c")).unwrap_err();
        assert!(missing.downcast_ref::<String>().unwrap().contains("'c' is not declared"));
    }
}
