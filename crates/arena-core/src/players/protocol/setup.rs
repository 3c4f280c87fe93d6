//! What a player is given when it is made, on the wire: the parameters it
//! declares in its `hello`, the `setup` request that gives their values
//! and its memory, and the `save_memory` request at the end of a match
//! whose `memory` reply hands the memory back (docs/protocol.md). A player
//! that declares neither parameters nor memory is never sent either.

use std::collections::BTreeMap;

use base64::{engine::general_purpose::STANDARD, Engine as _};
use player_api::params::{Kind, Param, Setup, Value};
use serde::{Deserialize, Serialize};

/// A parameter a player declares in its `hello`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireParam {
    pub name: String,
    /// `int` or `float`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(with = "number")]
    pub default: f64,
    #[serde(with = "number")]
    pub min: f64,
    #[serde(with = "number")]
    pub max: f64,
}

impl WireParam {
    /// The parameter, or why its type is not one (one sentence naming it);
    /// its numbers and name are checked with the rest ([`declared`]).
    pub fn param(&self) -> Result<Param, String> {
        let name = self.name.escape_debug();
        let kind = Kind::parse(&self.kind)
            .ok_or_else(|| format!("parameter '{name}' has type '{}': declare it int or float", self.kind))?;
        Ok(Param { name: self.name.clone(), kind, default: self.default, min: self.min, max: self.max })
    }
}

/// The parameters a `hello` declares, or why they are not a declaration
/// (one sentence naming the parameter: `params::check_declared`).
pub fn declared(params: &[WireParam]) -> Result<Vec<Param>, String> {
    let params = params.iter().map(WireParam::param).collect::<Result<Vec<_>, _>>()?;
    player_api::params::check_declared(&params)?;
    Ok(params)
}

/// A declared number on the wire. JSON has no NaN or infinity: serde_json
/// writes them as null, Python as a bare `NaN` that is no JSON at all. So a
/// number that is not finite goes as text ("NaN", "inf", "-inf"; the Python
/// host sends its own so), and null is read as NaN: the declaration then
/// reaches its check, which names the parameter, instead of failing as
/// garbage.
mod number {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        match x.is_finite() {
            true => serializer.serialize_f64(*x),
            false => serializer.serialize_str(&x.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(f64),
            Text(String),
            Null(()),
        }
        Ok(match Written::deserialize(deserializer)? {
            Written::Number(x) => x,
            Written::Text(text) => text.trim().parse().unwrap_or(f64::NAN),
            Written::Null(()) => f64::NAN,
        })
    }
}

impl From<&Param> for WireParam {
    fn from(param: &Param) -> WireParam {
        WireParam {
            name: param.name.clone(),
            kind: param.kind.name().to_string(),
            default: param.default,
            min: param.min,
            max: param.max,
        }
    }
}

/// A parameter's value on the wire: a JSON integer or number.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(untagged)]
pub enum WireValue {
    Int(i64),
    Float(f64),
}

/// `setup`: sent once, after `hello`, before the first `new_game`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct SetupRequest {
    /// Every declared parameter, by name.
    #[serde(default)]
    pub params: BTreeMap<String, WireValue>,
    /// The memory the player handed back at the end of its last match,
    /// in base64; absent (or null) when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
}

impl From<&Setup> for SetupRequest {
    fn from(setup: &Setup) -> SetupRequest {
        let params = setup
            .params()
            .iter()
            .map(|(name, value)| {
                let value = match *value {
                    Value::Int(n) => WireValue::Int(n),
                    Value::Float(x) => WireValue::Float(x),
                };
                (name.clone(), value)
            })
            .collect();
        SetupRequest { params, memory: setup.memory().map(encode) }
    }
}

impl SetupRequest {
    /// The setup it gives, or why it is bad.
    pub fn setup(&self) -> Result<Setup, String> {
        let params = self
            .params
            .iter()
            .map(|(name, value)| {
                let value = match *value {
                    WireValue::Int(n) => Value::Int(n),
                    WireValue::Float(x) => Value::Float(x),
                };
                (name.clone(), value)
            })
            .collect();
        let memory = self.memory.as_deref().map(decode).transpose()?;
        Ok(Setup::new(params, memory))
    }
}

/// Bytes as base64.
pub fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Base64 as bytes, or why it is not base64.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    STANDARD.decode(text).map_err(|e| format!("memory is not base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_goes_over_the_wire_and_back() {
        let setup = Setup::new(
            vec![("depth".into(), Value::Int(4)), ("w".into(), Value::Float(0.5))],
            Some(vec![0, 255, 7]),
        );
        let request = SetupRequest::from(&setup);
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(text, r#"{"params":{"depth":4,"w":0.5},"memory":"AP8H"}"#);
        let back: SetupRequest = serde_json::from_str(&text).unwrap();
        let mut again = back.setup().unwrap();
        assert_eq!(again.take_memory(), Some(vec![0, 255, 7]));
        assert_eq!((again.get_i64("depth"), again.get_f64("w")), (4, 0.5));
    }

    #[test]
    fn a_bad_declaration_names_the_parameter_and_the_fix() {
        let wire = |kind: &str, min: f64, max: f64| WireParam {
            name: "w".into(),
            kind: kind.into(),
            default: 1.0,
            min,
            max,
        };
        let check = |param: WireParam| declared(&[param]).map(drop);
        assert!(check(wire("float", 0.0, 2.0)).is_ok());
        assert!(check(wire("text", 0.0, 2.0)).unwrap_err().contains("declare it int or float"));
        assert!(check(wire("float", 3.0, 2.0)).unwrap_err().contains("min 3 > max 2"));
        assert!(check(wire("int", 2.0, 3.0)).unwrap_err().contains("outside its range"));
    }

    #[test]
    fn a_number_json_cannot_hold_reaches_the_check_and_is_named() {
        let text = |param: &WireParam| serde_json::to_string(param).unwrap();
        let nan = WireParam { name: "w".into(), kind: "float".into(), default: f64::NAN, min: 0.0, max: 1.0 };
        assert_eq!(text(&nan), r#"{"name":"w","type":"float","default":"NaN","min":0.0,"max":1.0}"#);
        let back: WireParam = serde_json::from_str(&text(&nan)).unwrap();
        assert!(back.default.is_nan());
        assert_eq!(declared(&[back]).unwrap_err(), "parameter 'w' has default NaN: declare finite numbers");
        // Python's own spelling of its non-finite floats, and serde_json's null.
        let read = |json: &str| -> WireParam { serde_json::from_str(json).unwrap() };
        let inf = read(r#"{"name":"w","type":"float","default":0,"min":0,"max":"inf"}"#);
        assert_eq!(declared(&[inf]).unwrap_err(), "parameter 'w' has max inf: declare finite numbers");
        let null = read(r#"{"name":"w","type":"float","default":null,"min":0,"max":1}"#);
        assert!(declared(&[null]).unwrap_err().contains("has default NaN"));
        assert!(serde_json::from_str::<WireParam>(
            r#"{"name":"w","type":"float","default":[],"min":0,"max":1}"#
        )
        .is_err());
    }
}
