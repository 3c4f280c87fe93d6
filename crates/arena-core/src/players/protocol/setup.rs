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
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

impl WireParam {
    /// The declaration, or why it is not one (one sentence naming it).
    pub fn param(&self) -> Result<Param, String> {
        let name = &self.name;
        let kind = Kind::parse(&self.kind)
            .ok_or_else(|| format!("parameter '{name}' has type '{}': declare it int or float", self.kind))?;
        let param = Param { name: name.clone(), kind, default: self.default, min: self.min, max: self.max };
        // NaN ends are refused too.
        if param.min.partial_cmp(&param.max).is_none_or(|order| order.is_gt()) {
            return Err(format!(
                "parameter '{name}' has min {} > max {}: declare min <= max",
                param.min, param.max
            ));
        }
        param.check(param.default_value()).map_err(|why| format!("its default: {why}"))?;
        Ok(param)
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
        assert!(wire("float", 0.0, 2.0).param().is_ok());
        assert!(wire("text", 0.0, 2.0).param().unwrap_err().contains("declare it int or float"));
        assert!(wire("float", 3.0, 2.0).param().unwrap_err().contains("min 3 > max 2"));
        assert!(wire("int", 2.0, 3.0).param().unwrap_err().contains("outside its range"));
    }
}
