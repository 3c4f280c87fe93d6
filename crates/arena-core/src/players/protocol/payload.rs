//! A game's own part of a frame: the position, view, board or step state a
//! request carries, and a game's rules in `new_game`. The protocol carries
//! it as JSON it does not read; the game's wire form
//! (`games/<game>/wire.rs`) writes and reads it, so that the protocol names
//! no game's types (docs/ARCHITECTURE.md, "Layering").

use serde::{de::DeserializeOwned, Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{value::RawValue, Value};

/// A game's wire form as JSON.
#[derive(Clone)]
pub struct Payload(Json);

#[derive(Clone)]
enum Json {
    /// Written by the arena: the form's own text, its fields in its order
    /// (the bytes docs/protocol.md shows; a `Value` would sort them).
    Text(Box<RawValue>),
    /// Read from a frame. A request is read through serde's buffering (its
    /// `type` tag comes first), which cannot hand over raw text.
    Read(Value),
}

impl Payload {
    /// The payload of a game's wire form.
    pub fn of<T: Serialize>(form: &T) -> Payload {
        Payload(Json::Text(serde_json::value::to_raw_value(form).expect("wire forms serialise")))
    }

    /// The game's wire form it holds; `Err` says why it is not one (not
    /// that form's JSON, a missing or an unknown field: the forms deny
    /// unknown fields).
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        match &self.0 {
            Json::Text(text) => serde_json::from_str(text.get()).map_err(|e| e.to_string()),
            Json::Read(value) => T::deserialize(value).map_err(|e| e.to_string()),
        }
    }

    fn value(&self) -> Option<Value> {
        match &self.0 {
            Json::Text(text) => serde_json::from_str(text.get()).ok(),
            Json::Read(value) => Some(value.clone()),
        }
    }
}

impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Json::Text(text) => text.serialize(serializer),
            Json::Read(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Payload, D::Error> {
        Value::deserialize(deserializer).map(|value| Payload(Json::Read(value)))
    }
}

/// The same JSON, written or read, whatever the order of its fields.
impl PartialEq for Payload {
    fn eq(&self, other: &Payload) -> bool {
        self.value() == other.value()
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Json::Text(text) => f.write_str(text.get()),
            Json::Read(value) => write!(f, "{value}"),
        }
    }
}
