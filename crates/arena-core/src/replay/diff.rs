//! The first difference between what a replay recorded and what the
//! referee did when the game was re-simulated, as one line. The games of
//! the issue-5 round compare their bodies in their JSON form: a recorded
//! step and a re-simulated one are built by the same code, so any
//! difference is the game's, and it is named by its field. Times are not
//! compared (`time_us`, `cpu_us`, and under a time bank `bank_left_us`).

use serde::Serialize;
use serde_json::Value;

/// Compares one recorded part with its re-simulated counterpart.
pub fn part<T: Serialize>(what: &str, recorded: &T, resimulated: &T, seed: u64) -> Result<(), String> {
    let (want, got) = (timeless(recorded), timeless(resimulated));
    match first_field(&want, &got) {
        None => Ok(()),
        Some((field, want, got)) => {
            let name = if field.is_empty() { what.to_string() } else { format!("{what}: {field}") };
            Err(format!("{name} is {want} in the replay but {got} when re-simulated with seed {seed}"))
        }
    }
}

/// Compares the recorded steps with the re-simulated ones, step by step;
/// `noun` names one ("reveal", "move", "action").
pub fn steps<T: Serialize>(noun: &str, recorded: &[T], resimulated: &[T], seed: u64) -> Result<(), String> {
    for (i, (want, got)) in recorded.iter().zip(resimulated).enumerate() {
        part(&format!("{noun} {}", i + 1), want, got, seed)?;
    }
    match recorded.len().cmp(&resimulated.len()) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Greater => Err(format!(
            "{noun} {}: the re-simulated game (seed {seed}) ended before it ({} {noun}s recorded)",
            resimulated.len() + 1,
            recorded.len()
        )),
        std::cmp::Ordering::Less => Err(format!(
            "the replay has {} {noun}s but the re-simulated game (seed {seed}) has {}",
            recorded.len(),
            resimulated.len()
        )),
    }
}

/// The value as JSON, without its times.
fn timeless<T: Serialize>(value: &T) -> Value {
    let mut json = serde_json::to_value(value).expect("plain data serialises");
    strip_times(&mut json);
    json
}

fn strip_times(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("time_us");
            map.remove("cpu_us");
            map.remove("bank_left_us");
            map.values_mut().for_each(strip_times);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_times),
        _ => {}
    }
}

/// The path of the first field that differs, and both values (compact JSON).
fn first_field(want: &Value, got: &Value) -> Option<(String, String, String)> {
    if want == got {
        return None;
    }
    if let (Value::Object(w), Value::Object(g)) = (want, got) {
        for (key, w_value) in w {
            let g_value = g.get(key).unwrap_or(&Value::Null);
            if let Some((inner, a, b)) = first_field(w_value, g_value) {
                let path = if inner.is_empty() { key.clone() } else { format!("{key}.{inner}") };
                return Some((path, a, b));
            }
        }
    }
    Some((String::new(), want.to_string(), got.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_differing_field_is_named_and_times_are_ignored() {
        let want = json!({"a": 1, "b": {"c": [1, 2], "d": true}, "time_us": 5});
        let got = json!({"a": 1, "b": {"c": [1, 3], "d": false}, "time_us": 9});
        assert_eq!(
            part("move 2", &want, &got, 7).unwrap_err(),
            "move 2: b.c is [1,2] in the replay but [1,3] when re-simulated with seed 7"
        );
        assert_eq!(part("x", &json!({"a": 1, "time_us": 1}), &json!({"a": 1, "time_us": 2}), 7), Ok(()));
        // What a bank had left depends on the times too (a person's bank).
        let bank = |left: u64| json!({"a": 1, "bank_left_us": left});
        assert_eq!(part("x", &bank(1_799_997_484), &bank(1_799_999_999), 7), Ok(()));
        assert_eq!(
            part("score", &3, &4, 1).unwrap_err(),
            "score is 3 in the replay but 4 when re-simulated with seed 1"
        );
    }

    #[test]
    fn missing_and_extra_steps_are_reported() {
        let err = steps("reveal", &[1, 2, 3], &[1, 2], 4).unwrap_err();
        assert!(err.starts_with("reveal 3: the re-simulated game (seed 4) ended before it"), "{err}");
        let err = steps("reveal", &[1], &[1, 2], 4).unwrap_err();
        assert!(err.contains("the replay has 1 reveals but the re-simulated game (seed 4) has 2"), "{err}");
    }
}
