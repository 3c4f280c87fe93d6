//! Names on the wire for a closed set of values (a game's actions, the
//! directions): each value's name, and a name's value, with an error that
//! lists the names that would have been right.

/// A table of names and the values they stand for.
pub struct Names<T: 'static>(pub &'static [(&'static str, T)]);

impl<T: Copy + PartialEq> Names<T> {
    /// The name of `value` (every value has one).
    pub fn name(&self, value: T) -> &'static str {
        self.0.iter().find(|(_, v)| *v == value).map(|(name, _)| *name).expect("every value named")
    }

    /// The value `name` stands for; `Err` names the `what` and the right names.
    pub fn value(&self, what: &str, name: &str) -> Result<T, String> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| format!("unknown {what} '{name}' (one of {})", self.list()))
    }

    /// The names, as `a, b, c`.
    pub fn list(&self) -> String {
        self.0.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
    }
}
