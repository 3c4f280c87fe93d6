//! The settings of a single-player game's replay: the game's rules as the
//! replay spells them, then the budgets, in one flat object
//! (`{"board_size": 4, "time_per_reveal_ms": 5000.0, "startup_time_ms":
//! 10000.0, "clock": "wall"}`).

use std::{fmt, marker::PhantomData, time::Duration};

use serde::{
    de::{self, IgnoredAny, MapAccess, Visitor},
    ser::SerializeStruct,
    Deserialize, Deserializer, Serialize, Serializer,
};

use super::{Budgeted, Budgets};
use crate::{play::clock::Clock, play::time_control::TimeControl};

/// A game's rules as its replay spells them.
pub trait RulesRecord {
    /// The name of the budget of one request: `time_per_reveal_ms`,
    /// `time_per_action_ms`.
    const TIME_PER_STEP: &'static str;
}

/// A replay's settings: the rules, then the budgets, side by side.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SettingsRecord<R: RulesRecord> {
    #[serde(flatten)]
    pub rules: R,
    #[serde(flatten)]
    pub budgets: BudgetsRecord<R>,
}

impl<R: RulesRecord> SettingsRecord<R> {
    /// The record of settings whose rules `rules` records.
    pub fn new<T>(rules: R, settings: &Budgeted<T>) -> SettingsRecord<R> {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let budgets = &settings.budgets;
        let (time_per_step_ms, time_control) = budgets.turn.recorded();
        let budgets = BudgetsRecord {
            time_per_step_ms,
            startup_time_ms: ms(budgets.startup),
            clock: budgets.clock,
            time_control,
            rules: PhantomData,
        };
        SettingsRecord { rules, budgets }
    }

    /// The settings recorded, with `rules` the rules this record spells.
    pub fn settings<T>(&self, rules: T) -> Budgeted<T> {
        let ms = |ms: f64| Duration::from_nanos((ms * 1e6).round() as u64);
        let b = &self.budgets;
        Budgeted {
            rules,
            budgets: Budgets {
                turn: TimeControl::from_record(b.time_per_step_ms, b.time_control),
                startup: ms(b.startup_time_ms),
                clock: b.clock,
                // Not recorded: a replayed answer comes at once, never late.
                ..Budgets::default()
            },
        }
    }
}

/// The budgets as a replay records them: `time_per_<step>_ms` (named by the
/// rules), `startup_time_ms`, `clock` (older replays: none, the wall clock).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetsRecord<R> {
    /// The budget of a step; under a time bank, its first step's.
    pub time_per_step_ms: f64,
    pub startup_time_ms: f64,
    pub clock: Clock,
    /// The time control when it is a bank (`60s+1s`; absent otherwise).
    pub time_control: Option<TimeControl>,
    rules: PhantomData<R>,
}

const STARTUP: &str = "startup_time_ms";
const CLOCK: &str = "clock";
const TIME_CONTROL: &str = "time_control";

impl<R: RulesRecord> Serialize for BudgetsRecord<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("BudgetsRecord", 4)?;
        record.serialize_field(R::TIME_PER_STEP, &self.time_per_step_ms)?;
        record.serialize_field(STARTUP, &self.startup_time_ms)?;
        record.serialize_field(CLOCK, &self.clock)?;
        match &self.time_control {
            Some(control) => record.serialize_field(TIME_CONTROL, control)?,
            None => record.skip_field(TIME_CONTROL)?,
        }
        record.end()
    }
}

impl<'de, R: RulesRecord> Deserialize<'de> for BudgetsRecord<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Flattened: the map holds the rules' fields too; they are passed over.
        deserializer.deserialize_map(Fields(PhantomData))
    }
}

struct Fields<R>(PhantomData<R>);

impl<'de, R: RulesRecord> Visitor<'de> for Fields<R> {
    type Value = BudgetsRecord<R>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "the budgets: {}, {STARTUP}, {CLOCK}", R::TIME_PER_STEP)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut step, mut startup, mut clock, mut time_control) = (None, None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                key if key == R::TIME_PER_STEP => step = Some(map.next_value()?),
                STARTUP => startup = Some(map.next_value()?),
                CLOCK => clock = Some(map.next_value()?),
                TIME_CONTROL => time_control = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(BudgetsRecord {
            time_per_step_ms: step.ok_or_else(|| de::Error::missing_field(R::TIME_PER_STEP))?,
            startup_time_ms: startup.ok_or_else(|| de::Error::missing_field(STARTUP))?,
            clock: clock.unwrap_or_default(),
            time_control,
            rules: PhantomData,
        })
    }
}
